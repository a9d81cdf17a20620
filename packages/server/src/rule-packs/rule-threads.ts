import { availableParallelism } from 'node:os';
import type { CustomRule } from '@loupe/contract';
import PQueue from 'p-queue';
import { Piscina } from 'piscina';
import type { RuleBatch, RuleBatchAnswer, RuleStop } from './rule-batch.ts';
import type { RuleTask } from './rule-thread.ts';
import { RuleWatch } from './rule-watch.ts';
import { wallClock } from './wall-clock.ts';

/**
 * A batch's answer: every rule's outcome (up to where the thread handed over before the
 * deadline); or the rule its thread ended in: one that outlived its budget (the thread was
 * ended), or one the thread died of (out of memory, say); or none at all, when the run's
 * deadline came before a thread took the batch or between its rules.
 */
export type RuleThreadAnswer = RuleBatchAnswer | { stopped: RuleStop & { rule: number } } | { expired: true };

/** Which runs take a rule thread first when every thread is busy. */
export type RulePriority = 'report' | 'preview';

/**
 * A report build's batches before any preview's, each kind in the order it came: previews are
 * bounded by their deadline and one at a time per workspace, a report build by neither, so
 * previews of many workspaces must not keep it waiting batch after batch.
 */
const PRIORITY: Record<RulePriority, number> = { report: 1, preview: 0 };

/** A rule thread's heap: a runaway rule ends its own thread, not the process (DOMs of 100 pages of 1 MiB fit). */
const THREAD_HEAP_MB = 1024;

/**
 * Custom rules run here, never on the event loop: a rule may take unbounded time on a page
 * (css-select is exponential on descendant chains), and a thread that runs past a rule's budget
 * is ended, a fresh one taking its place, while the server goes on answering. As in the
 * ranking threads, they start with the first task and end after a minute without one; as many
 * as the cores. When every thread is busy, a report build's batches go before a preview's.
 */
export class RuleThreads {
  readonly #maxThreads: number;
  #pool?: Piscina<RuleTask, RuleBatchAnswer>;
  /** Batches wait here, by priority, for a thread; piscina's own queue is first come, first served. */
  readonly #waiting: PQueue;

  constructor(options: { maxThreads?: number } = {}) {
    this.#maxThreads = options.maxThreads ?? availableParallelism();
    this.#waiting = new PQueue({ concurrency: this.#maxThreads });
  }

  async run(rules: CustomRule[], batch: Omit<RuleBatch, 'board'>, priority: RulePriority): Promise<RuleThreadAnswer> {
    this.#pool ??= new Piscina({
      filename: new URL('./rule-thread.ts', import.meta.url).href,
      minThreads: 0,
      idleTimeout: 60_000,
      maxThreads: this.#maxThreads,
      recordTiming: false,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    const pool = this.#pool;
    const board = RuleWatch.board();
    const watch = new RuleWatch(board);
    const stop = new AbortController();
    let overdue: ReturnType<RuleWatch['overdue']>;
    let expired = false;
    // Late by a tenth of the page budget at most, and never idle for long.
    const tick = Math.max(5, Math.min(100, batch.pageBudgetMs / 10));
    const timer = setInterval(() => {
      if (overdue || expired) return;
      overdue = watch.overdue(performance.now());
      // Past the deadline with no rule under way (still queued, say): a thread stops its rules itself
      // within a tick of it, so one that has not answered by then is not waited for.
      expired = !overdue && batch.deadlineAt !== null && wallClock() > batch.deadlineAt + tick && !watch.current();
      if (overdue || expired) stop.abort();
    }, tick);
    try {
      const task = { rules, batch: { ...batch, board } };
      return await this.#waiting.add(() => pool.run(task, { signal: stop.signal }), { priority: PRIORITY[priority], signal: stop.signal });
    } catch (error) {
      if (overdue) return { stopped: { rule: overdue.rule, page: overdue.page, cause: 'timeout', budget: overdue.budget } };
      if (expired) return { expired: true };
      const running = watch.current();
      if (running)
        return {
          stopped: {
            rule: running.rule,
            page: running.page,
            cause: 'failed',
            reason: error instanceof Error ? error.message : String(error),
          },
        };
      throw error;
    } finally {
      clearInterval(timer);
    }
  }

  /** Ends the threads (a test's own RuleThreads). */
  async close(): Promise<void> {
    await this.#pool?.destroy();
  }
}

/** The process's rule threads, shared by previews and report builds. */
export const ruleThreads = new RuleThreads();
