import type { CompiledRule } from './compiled-rule.ts';
import { evaluateRule, type RuleEvaluation } from './rule-evaluator.ts';
import type { RuleSubject } from './rule-subject.ts';
import { RuleWatch } from './rule-watch.ts';
import { wallClock } from './wall-clock.ts';

/**
 * Which of a rule's budgets an evaluation ran under, the least of: the page's, what was left
 * of the run's, and what was left before the run's deadline.
 */
export type BudgetKind = 'page' | 'run' | 'deadline';

/** Why a rule was stopped on a page of a batch: past a budget, or it threw (a runaway rule's thread can also die of it). */
export type RuleStop = { page: number } & ({ cause: 'timeout'; budget: BudgetKind } | { cause: 'failed'; reason: string });

/** Pages of one run for one rule thread, with what each rule may still spend. */
export interface RuleBatch {
  /** The run's rules compiled once per thread, under this key (rule-thread.ts). */
  runId: string;
  subjects: RuleSubject[];
  pageBudgetMs: number;
  /** Per rule: the pages of this batch it runs on, those before this index (0: stopped). */
  pageLimit: number[];
  /** Per rule: what is left of its budget for the whole run, in milliseconds. */
  runBudgetLeftMs: number[];
  /** Per rule: how many of its firings to explain (message and evidence); the later ones are counted. */
  explain: number[];
  /** When the whole run ends (wallClock), if it has a deadline: every rule not done by then is stopped. */
  deadlineAt: number | null;
  /** The first page to run: 0, or where a batch handed over before the deadline goes on (RuleBatchAnswer.pausedAt). */
  fromPage: number;
  /** Shared with the thread that watches this one (RuleWatch). */
  board: SharedArrayBuffer;
}

export interface FiredRule {
  /** The page's index in the batch. */
  page: number;
  message?: string;
  evidence?: RuleEvaluation['evidence'];
}

/** One rule over one batch. */
export interface RuleBatchOutcome {
  /** Pages it passed or fired on. */
  decided: number;
  notApplicable: number;
  fired: FiredRule[];
  spentMs: number;
  /** Set when it was stopped on a page: that page's outcome is not counted, nor later ones'. */
  stop?: RuleStop;
}

/**
 * A batch's outcomes, per rule. Once the run's deadline is nearer than a page's budget, a
 * thread hands over what it has decided page by page (`pausedAt`, the page to go on from),
 * since a thread ended on the deadline takes its batch's outcomes with it.
 */
export interface RuleBatchAnswer {
  outcomes: RuleBatchOutcome[];
  pausedAt?: number;
}

/**
 * Runs the rules over the pages, page after page (every rule of a page shares its parsed DOM),
 * timing each evaluation. Before each one it tells the board which rule, page and budget, so
 * the thread that watches can end this one when a rule never comes back; a rule that came
 * back late, or threw, is stopped here, as is every rule once the run's deadline has passed.
 * Each page is evaluated on its own copy of the subject, so its parsed DOM (kept per subject
 * object) is let go once its rules are done.
 */
export function evaluateBatch(rules: readonly CompiledRule[], batch: RuleBatch): RuleBatchAnswer {
  const watch = new RuleWatch(batch.board);
  const explain = [...batch.explain];
  const left = [...batch.runBudgetLeftMs];
  const limit = [...batch.pageLimit];
  const outcomes: RuleBatchOutcome[] = rules.map(() => ({ decided: 0, notApplicable: 0, fired: [], spentMs: 0 }));
  for (let page = batch.fromPage; page < batch.subjects.length; page++) {
    if (!limit.some((pages) => page < pages)) break;
    if (page > batch.fromPage && batch.deadlineAt !== null && batch.deadlineAt - wallClock() < batch.pageBudgetMs)
      return { outcomes, pausedAt: page };
    const subject = { ...(batch.subjects[page] as RuleSubject) };
    for (let index = 0; index < rules.length; index++) {
      if (page >= (limit[index] as number)) continue;
      const outcome = outcomes[index] as RuleBatchOutcome;
      const runLeft = left[index] as number;
      const deadlineLeft = batch.deadlineAt === null ? Number.POSITIVE_INFINITY : batch.deadlineAt - wallClock();
      if (deadlineLeft <= 0) {
        outcome.stop = { page, cause: 'timeout', budget: 'deadline' };
        limit[index] = page;
        continue;
      }
      const budget: BudgetKind =
        deadlineLeft < Math.min(batch.pageBudgetMs, runLeft) ? 'deadline' : runLeft < batch.pageBudgetMs ? 'run' : 'page';
      const budgetMs = Math.max(0, Math.min(batch.pageBudgetMs, runLeft, deadlineLeft));
      watch.started(index, page, budgetMs, budget);
      const start = performance.now();
      let result: RuleEvaluation;
      try {
        result = evaluateRule(rules[index] as CompiledRule, subject, { explain: (explain[index] as number) > 0 });
      } catch (error) {
        outcome.stop = { page, cause: 'failed', reason: error instanceof Error ? error.message : String(error) };
        limit[index] = page;
        continue;
      } finally {
        watch.ended();
      }
      const spent = performance.now() - start;
      outcome.spentMs += spent;
      left[index] = runLeft - spent;
      if (spent > budgetMs) {
        outcome.stop = { page, cause: 'timeout', budget };
        limit[index] = page;
        continue;
      }
      tally(outcome, result, page, explain, index);
    }
  }
  return { outcomes };
}

/** Counts a rule's evaluation on a page into its outcome; a firing explained uses up one of the rule's explanations. */
function tally(outcome: RuleBatchOutcome, result: RuleEvaluation, page: number, explain: number[], index: number): void {
  if (result.outcome === 'out-of-scope') return;
  if (result.outcome === 'not-applicable') {
    outcome.notApplicable += 1;
    return;
  }
  outcome.decided += 1;
  if (result.outcome !== 'fired') return;
  if (result.message === undefined) {
    outcome.fired.push({ page });
    return;
  }
  explain[index] = (explain[index] as number) - 1;
  outcome.fired.push({ page, message: result.message, evidence: result.evidence });
}
