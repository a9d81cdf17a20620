/**
 * How long custom rules may run. A CSS selector with descendant combinators takes time
 * exponential in how deeply a page nests (`section div div div` held a thread 8.7 s on 200
 * nested divs), so no page, however odd, may hold a rule longer than `pageMs`, nor a preview
 * or a report build longer than `previewMs` or `reportMs` in all; a rule past one is stopped
 * and reported (RuleError). A preview as a whole ends at `previewDeadlineMs`, however many
 * rules share the time.
 */
export interface RuleBudgets {
  /** One rule on one page, in milliseconds (LOUPE_RULE_PAGE_BUDGET_MS). */
  pageMs: number;
  /** One rule over all the pages of one preview, in milliseconds (LOUPE_RULE_PREVIEW_BUDGET_MS). */
  previewMs: number;
  /** A whole preview, wall time from when its rules start (LOUPE_RULE_PREVIEW_DEADLINE_MS). */
  previewDeadlineMs: number;
  /** One rule over all the pages of one report build, in milliseconds of evaluation (LOUPE_RULE_REPORT_BUDGET_MS). */
  reportMs: number;
}

/**
 * A normal rule takes well under a millisecond a page (bench/rule-eval.ts: 0.15–0.3 ms on
 * average, 7 ms for the costliest). The deadline answers before the 60 s a reverse proxy
 * commonly waits (nginx's proxy_read_timeout), while 50 rules still cover some 4,000 pages
 * (bench/rule-preview.ts); a report's minute per rule covers 200,000 pages at 0.3 ms.
 */
export const DEFAULT_RULE_BUDGETS: RuleBudgets = { pageMs: 1000, previewMs: 10_000, previewDeadlineMs: 30_000, reportMs: 60_000 };
