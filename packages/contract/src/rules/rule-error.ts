import { z } from 'zod';

/**
 * A custom rule stopped before it was decided on every page: one that ran past its time
 * budget (a CSS selector can take time exponential in the page's nesting), or that failed on
 * a page. It is reported at the rule rather than dropped; what it found on the pages before
 * stands.
 */
export const RuleError = z
  .object({
    ruleId: z.string(),
    code: z
      .enum(['rule_timeout', 'rule_failed'])
      .describe(
        'rule_timeout: it ran past its time budget and was stopped. rule_failed: it could not be decided on a page (it ran out of memory, say).',
      ),
    message: z.string().describe('What happened, for a person: the page, the budget or the failure, what to change.'),
    budget: z
      .enum(['page', 'preview', 'report', 'deadline'])
      .nullable()
      .describe(
        "For a timeout, which budget ran out: the time one rule may take on one page, in all of one preview, or in all of one report build; or the preview's deadline, the wall time a whole preview may take (its rules not done by then are stopped, whichever took the time).",
      ),
    budgetMs: z.number().int().nullable(),
    url: z.string().describe('The page it was being decided on when it was stopped.'),
    pagesEvaluated: z
      .number()
      .int()
      .describe('Pages it was run on before it was stopped, in its scope or not; it was not run on later ones.'),
  })
  .meta({ id: 'RuleError' });
export type RuleError = z.infer<typeof RuleError>;
