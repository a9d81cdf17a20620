import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { CustomRule } from '@loupe/contract';
import type { RuleBatch, RuleBatchOutcome, RuleStop } from './rule-batch.ts';
import type { RuleTask } from './rule-thread.ts';
import { RuleWatch } from './rule-watch.ts';

/**
 * A batch's answer: every rule's outcome, or the rule its thread ended in: one that outlived
 * its budget (the thread was ended), or one the thread died of (out of memory, say).
 */
export type RuleThreadAnswer = { outcomes: RuleBatchOutcome[] } | { stopped: RuleStop & { rule: number } };

/** A rule thread's heap: a runaway rule ends its own thread, not the process (DOMs of 100 pages of 1 MiB fit). */
const THREAD_HEAP_MB = 1024;

/**
 * Custom rules run here, never on the event loop: a rule may take unbounded time on a page
 * (css-select is exponential on descendant chains), and a thread that runs past a rule's budget
 * is ended, a fresh one taking its place, while the server goes on answering. As in the
 * ranking threads, they start with the first task and end after a minute without one; as many
 * as the cores.
 */
export class RuleThreads {
  #pool?: Piscina<RuleTask, RuleBatchOutcome[]>;

  async run(rules: CustomRule[], batch: Omit<RuleBatch, 'board'>): Promise<RuleThreadAnswer> {
    this.#pool ??= new Piscina({
      filename: new URL('./rule-thread.ts', import.meta.url).href,
      minThreads: 0,
      idleTimeout: 60_000,
      maxThreads: availableParallelism(),
      recordTiming: false,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    const board = RuleWatch.board();
    const watch = new RuleWatch(board);
    const stop = new AbortController();
    let overdue: ReturnType<RuleWatch['overdue']>;
    // Late by a tenth of the page budget at most, and never idle for long.
    const tick = Math.max(5, Math.min(100, batch.pageBudgetMs / 10));
    const timer = setInterval(() => {
      if (overdue) return;
      overdue = watch.overdue(performance.now());
      if (overdue) stop.abort();
    }, tick);
    try {
      return { outcomes: await this.#pool.run({ rules, batch: { ...batch, board } }, { signal: stop.signal }) };
    } catch (error) {
      if (overdue) return { stopped: { rule: overdue.rule, page: overdue.page, cause: 'timeout', budget: overdue.budget } };
      const running = watch.current();
      if (running) return { stopped: { rule: running.rule, page: running.page, cause: 'failed', reason: error instanceof Error ? error.message : String(error) } };
      throw error;
    } finally {
      clearInterval(timer);
    }
  }
}

/** The process's rule threads, shared by previews and report builds. */
export const ruleThreads = new RuleThreads();
