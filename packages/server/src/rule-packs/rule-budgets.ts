/**
 * How long one custom rule may run. A CSS selector with descendant combinators takes time
 * exponential in how deeply a page nests (`section div div div` held a thread 8.7 s on 200
 * nested divs), so no page, however odd, may hold a rule longer than `pageMs`, nor a preview
 * longer than `previewMs` in all; a rule past either is stopped and reported (RuleError).
 */
export interface RuleBudgets {
  /** One rule on one page, in milliseconds (LOUPE_RULE_PAGE_BUDGET_MS). */
  pageMs: number;
  /** One rule over all the pages of one preview, in milliseconds (LOUPE_RULE_PREVIEW_BUDGET_MS). */
  previewMs: number;
}

/** A normal rule takes well under a millisecond a page (bench/rule-eval.ts: 0.15–0.3 ms on average, 7 ms for the costliest). */
export const DEFAULT_RULE_BUDGETS: RuleBudgets = { pageMs: 1000, previewMs: 10_000 };
