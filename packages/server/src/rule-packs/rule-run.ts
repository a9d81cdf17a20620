import { randomUUID } from 'node:crypto';
import type { CustomRule, RuleError } from '@loupe/contract';
import type { CompiledRule } from './compiled-rule.ts';
import type { RuleBatchOutcome, RuleStop } from './rule-batch.ts';
import type { RuleSubject } from './rule-subject.ts';
import { type RulePriority, type RuleThreads, ruleThreads } from './rule-threads.ts';
import { subjectAsRulesSeeIt } from './subject-view.ts';
import { wallClock } from './wall-clock.ts';

/** Pages sent to a rule thread at once: a thread ended mid-batch costs the batch again, less the rule stopped. */
const PAGES_PER_TASK = 100;

export interface RuleRunOptions {
  /** What runs: names the run's budget in errors, and a report build's batches go first on busy threads. */
  purpose: RulePriority;
  /** The most one rule may take on one page. */
  pageBudgetMs: number;
  /** The most one rule may take over the whole run (a preview's or report build's budget); unbounded if left out. */
  runBudgetMs?: number;
  /** The most the whole run may take, wall time from its creation: every rule not done by then is stopped. */
  deadlineMs?: number;
  /** How many firings of each rule to explain (message and evidence), in page order; all if left out. */
  explain?: number;
  threads?: Pick<RuleThreads, 'run'>;
}

interface RuleState {
  pagesRun: number;
  budgetLeftMs: number;
  explainLeft: number;
  error: RuleError | null;
}

/**
 * One preview's or report build's evaluation of custom rules, batch after batch, on the rule
 * threads: every rule within its budgets. A rule past one is stopped, for the rest of the
 * run, at the page where it happened, and kept as a RuleError; its outcomes on the pages
 * before stand. The run's rules must have compiled (the compile step reports problems).
 */
export class RuleRun {
  readonly #id = randomUUID();
  readonly #rules: CompiledRule[];
  /** What a thread compiles the run's rules from, sent with every batch. */
  readonly #definitions: CustomRule[];
  readonly #options: RuleRunOptions;
  readonly #threads: Pick<RuleThreads, 'run'>;
  readonly #states: RuleState[];
  readonly #deadlineAt: number | null;

  constructor(rules: CompiledRule[], options: RuleRunOptions) {
    this.#rules = rules;
    this.#definitions = rules.map((rule) => rule.definition);
    this.#options = options;
    this.#deadlineAt = options.deadlineMs === undefined ? null : wallClock() + options.deadlineMs;
    this.#threads = options.threads ?? ruleThreads;
    this.#states = rules.map(() => ({
      pagesRun: 0,
      budgetLeftMs: options.runBudgetMs ?? Number.POSITIVE_INFINITY,
      explainLeft: options.explain ?? Number.POSITIVE_INFINITY,
      error: null,
    }));
  }

  /** Per rule, in the run's order: why it was stopped, or null. */
  errors(): (RuleError | null)[] {
    return this.#states.map((state) => state.error);
  }

  /** Every rule of the run stopped (past a budget, or the deadline): later pages need not be read. */
  get done(): boolean {
    return this.#states.length > 0 && this.#states.every((state) => state.error);
  }

  /** Every rule over these pages, per rule in the run's order; a fired page is its index in `subjects`. */
  async evaluate(subjects: RuleSubject[]): Promise<RuleBatchOutcome[]> {
    const merged = this.#rules.map(noOutcome);
    for (let start = 0; start < subjects.length; start += PAGES_PER_TASK) {
      // Every rule stopped: nothing left to send a thread.
      if (this.#states.every((state) => state.error)) break;
      const part = subjects.slice(start, start + PAGES_PER_TASK).map(subjectAsRulesSeeIt);
      (await this.#evaluatePart(part)).forEach((outcome, index) => add(merged[index] as RuleBatchOutcome, outcome, start));
    }
    return merged;
  }

  async #evaluatePart(subjects: RuleSubject[]): Promise<RuleBatchOutcome[]> {
    const part: Part = {
      subjects,
      pageLimit: this.#states.map((state) => (state.error ? 0 : subjects.length)),
      ended: new Map(),
      decided: this.#rules.map(noOutcome),
      pagesBefore: this.#states.map((state) => state.pagesRun),
      fromPage: 0,
    };
    for (;;) {
      if (this.#deadlineAt !== null && wallClock() >= this.#deadlineAt) return this.#expire(part);
      const batch = {
        runId: this.#id,
        subjects,
        pageBudgetMs: this.#options.pageBudgetMs,
        pageLimit: part.pageLimit,
        runBudgetLeftMs: this.#states.map((state) => state.budgetLeftMs),
        explain: this.#states.map((state) => state.explainLeft),
        deadlineAt: this.#deadlineAt,
        fromPage: part.fromPage,
      };
      const answer = await this.#threads.run(this.#definitions, batch, this.#options.purpose);
      if ('expired' in answer) return this.#expire(part);
      if ('stopped' in answer) {
        // Again without it from that page on: the ended thread's outcomes are lost, the others' are recomputed.
        const { rule, ...stop } = answer.stopped;
        part.ended.set(rule, stop);
        part.pageLimit[rule] = stop.page;
        continue;
      }
      answer.outcomes.forEach((outcome, index) => {
        const state = this.#states[index] as RuleState;
        if (state.error) return;
        state.budgetLeftMs -= outcome.spentMs;
        state.explainLeft -= outcome.fired.filter((fired) => fired.message !== undefined).length;
        add(part.decided[index] as RuleBatchOutcome, outcome, 0);
        // A stop in this answer is on a page before any the thread ended on (the rule ran no further).
        const stop = outcome.stop ?? (answer.pausedAt === undefined ? part.ended.get(index) : undefined);
        if (stop) {
          part.pageLimit[index] = stop.page;
          this.#stop(index, stop, part, stop.page);
        } else if (answer.pausedAt === undefined) {
          state.pagesRun = (part.pagesBefore[index] as number) + subjects.length;
        }
      });
      if (answer.pausedAt === undefined) return part.decided;
      // Handed over before the deadline: what it decided is kept, the rest of the part goes on from there.
      part.fromPage = answer.pausedAt;
    }
  }

  /**
   * The deadline came before the rest of the part's outcomes did: every rule not done yet is
   * stopped where the outcomes handed over end (a thread ended on the deadline took the
   * rest with it), or where its thread had already ended for a cause of its own.
   */
  #expire(part: Part): RuleBatchOutcome[] {
    const { subjects } = part;
    this.#states.forEach((state, index) => {
      if (state.error) return;
      const covered = Math.min(part.fromPage, part.pageLimit[index] as number);
      const stop = part.ended.get(index) ?? { page: covered, cause: 'timeout', budget: 'deadline' };
      if (stop.page < subjects.length) this.#stop(index, stop, part, covered);
      else state.pagesRun = (part.pagesBefore[index] as number) + subjects.length;
    });
    return part.decided;
  }

  /** Stops a rule for the rest of the run, its outcomes covering the part's first `covered` pages. */
  #stop(index: number, stop: RuleStop, part: Part, covered: number): void {
    const state = this.#states[index] as RuleState;
    state.pagesRun = (part.pagesBefore[index] as number) + covered;
    state.error = this.#error(index, stop, part.subjects[stop.page] as RuleSubject);
  }

  #error(index: number, stop: RuleStop, subject: RuleSubject): RuleError {
    const error = {
      ruleId: (this.#rules[index] as CompiledRule).definition.id,
      url: subject.url,
      pagesEvaluated: (this.#states[index] as RuleState).pagesRun,
    };
    if (stop.cause === 'failed') {
      return {
        ...error,
        code: 'rule_failed',
        budget: null,
        budgetMs: null,
        message: `Stopped on ${subject.url}: the rule could not be decided on this page (${stop.reason}), and was not run on later pages.`,
      };
    }
    if (stop.budget === 'deadline') {
      const budgetMs = this.#options.deadlineMs as number;
      return {
        ...error,
        code: 'rule_timeout',
        budget: 'deadline',
        budgetMs,
        message:
          `Stopped on ${subject.url}: the ${this.#options.purpose} reached its deadline of ${budgetMs} ms before this rule was run on every page; ` +
          'its counts cover the pages before. The time may have gone to other rules: those stopped at their page or preview budget are the costly ones.',
      };
    }
    const page = stop.budget === 'page';
    const budgetMs = page ? this.#options.pageBudgetMs : (this.#options.runBudgetMs as number);
    const over = page ? `more than ${budgetMs} ms on this one page` : `more than ${budgetMs} ms over this ${this.#options.purpose}'s pages`;
    return {
      ...error,
      code: 'rule_timeout',
      budget: page ? 'page' : this.#options.purpose,
      budgetMs,
      message:
        `Stopped on ${subject.url}: the rule took ${over}, and was not run on later pages. The usual cause is a selector with several ` +
        "descendant combinators (`section div div`), whose time grows with the power of the page's nesting depth: anchor it with child combinators (`>`) or classes.",
    };
  }
}

/** Where a run is in one part of its pages (one thread's batch, perhaps sent more than once). */
interface Part {
  subjects: RuleSubject[];
  /** Per rule: the pages a thread runs it on, those before this index. */
  pageLimit: number[];
  /** A rule whose thread ended on a page: where and why, to report once the part is done without it. */
  ended: Map<number, RuleStop>;
  /** Per rule: the outcomes handed over so far. */
  decided: RuleBatchOutcome[];
  /** Per rule: the pages of the run it had been run on before this part. */
  pagesBefore: number[];
  /** The first page a thread runs: where one that handed over before the deadline goes on. */
  fromPage: number;
}

function noOutcome(): RuleBatchOutcome {
  return { decided: 0, notApplicable: 0, fired: [], spentMs: 0 };
}

/** Adds an outcome into another, its fired pages moved by `offset`. */
function add(into: RuleBatchOutcome, outcome: RuleBatchOutcome, offset: number): void {
  into.decided += outcome.decided;
  into.notApplicable += outcome.notApplicable;
  into.spentMs += outcome.spentMs;
  for (const fired of outcome.fired) into.fired.push({ ...fired, page: fired.page + offset });
}
