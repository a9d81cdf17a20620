import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { PositionalList } from './positional-list.ts';
import type { GenerationStats, PositionalQuery, RankedMatch } from './positional-ranking.ts';
import type { RankingTask } from './ranking-thread.ts';

/**
 * PostgreSQL's rankings over word lists, run beside the event loop: a query of several words
 * visits thousands of candidates, and on the event loop every other request of the process
 * waited meanwhile. A list and the generation's stats are decoded in shared memory
 * (positional-list.ts), so a task carries views of them, not copies. The threads start with
 * the first task and end after a minute without one; an idle one does not keep the process
 * alive. As many as the cores: with fewer, several-word queries queue behind each other
 * (figures: bench/README.md, search).
 */
export class RankingThreads {
  #pool?: Piscina<RankingTask, RankedMatch[]>;

  rank(query: PositionalQuery, lists: Map<string, PositionalList>, stats: GenerationStats, count: number): Promise<RankedMatch[]> {
    this.#pool ??= new Piscina({
      filename: new URL('./ranking-thread.ts', import.meta.url).href,
      minThreads: 0,
      idleTimeout: 60_000,
      maxThreads: availableParallelism(),
      // Its run and wait time histograms, which nothing here reads: work on the event loop for every task.
      recordTiming: false,
    });
    return this.#pool.run({ query, lists, stats, count });
  }
}
