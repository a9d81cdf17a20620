import type { BudgetKind } from './rule-batch.ts';

const SEQUENCE = 0;
const RUNNING = 1;
const RULE = 2;
const PAGE = 3;
const BUDGET_MS = 4;
const KIND = 5;
const SLOTS = 6;
/** A budget's kind, as its index here. */
const KINDS: readonly BudgetKind[] = ['page', 'run', 'deadline'];

/** The evaluation a rule thread is in, as its watcher last saw it. */
export interface RunningRule {
  rule: number;
  page: number;
  budgetMs: number;
  budget: BudgetKind;
}

/**
 * What a rule thread is evaluating, in shared memory: the thread writes before and after each
 * rule on each page; the event loop reads it on a timer and ends a thread whose evaluation has
 * outlived its budget. A synchronous selector match cannot be interrupted from inside its own
 * thread, only by ending the thread. Time is measured on the watching side's own clock from
 * when it first saw the evaluation, so the two threads' clocks never meet.
 */
export class RuleWatch {
  readonly #slots: Int32Array;
  #seen = -1;
  #seenAt = 0;

  constructor(board: SharedArrayBuffer) {
    this.#slots = new Int32Array(board);
  }

  static board(): SharedArrayBuffer {
    return new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
  }

  /** On the rule thread, before an evaluation. */
  started(rule: number, page: number, budgetMs: number, budget: BudgetKind): void {
    Atomics.store(this.#slots, RULE, rule);
    Atomics.store(this.#slots, PAGE, page);
    Atomics.store(this.#slots, BUDGET_MS, Math.ceil(budgetMs));
    Atomics.store(this.#slots, KIND, KINDS.indexOf(budget));
    Atomics.add(this.#slots, SEQUENCE, 1);
    Atomics.store(this.#slots, RUNNING, 1);
  }

  /** On the rule thread, after it. */
  ended(): void {
    Atomics.store(this.#slots, RUNNING, 0);
  }

  /** On the watching side: the evaluation under way, if any (after a thread died, the one it died in). */
  current(): (RunningRule & { sequence: number }) | undefined {
    const sequence = Atomics.load(this.#slots, SEQUENCE);
    if (Atomics.load(this.#slots, RUNNING) === 0) return undefined;
    const running = {
      sequence,
      rule: Atomics.load(this.#slots, RULE),
      page: Atomics.load(this.#slots, PAGE),
      budgetMs: Atomics.load(this.#slots, BUDGET_MS),
      budget: KINDS[Atomics.load(this.#slots, KIND)] as BudgetKind,
    };
    // Moved on meanwhile: what was read may be the next evaluation's.
    if (Atomics.load(this.#slots, SEQUENCE) !== sequence || Atomics.load(this.#slots, RUNNING) === 0) return undefined;
    return running;
  }

  /**
   * On the watching side, at each tick: the evaluation that has now run past its budget since
   * this side first saw it start, if any. Up to one tick late, never early.
   */
  overdue(now: number): RunningRule | undefined {
    const running = this.current();
    if (!running) return undefined;
    if (running.sequence !== this.#seen) {
      this.#seen = running.sequence;
      this.#seenAt = now;
      return undefined;
    }
    return now - this.#seenAt > running.budgetMs ? running : undefined;
  }
}
