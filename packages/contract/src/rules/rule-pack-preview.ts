import { z } from 'zod';
import { Id } from '../common/resource.ts';
import { Severity } from '../reports/report.ts';
import { RuleError } from './rule-error.ts';
import { RulePack } from './rule-pack.ts';

const Samples = z.number().int().min(0).max(20).default(5).describe('Pages named per rule, of those it fires on.');

export const PreviewRulePack = z.strictObject({
  projectId: Id.describe("Runs over the stored pages of this project's newest report."),
  samples: Samples,
});

export const PreviewUnsavedRulePack = PreviewRulePack.extend({ pack: RulePack });

export const RulePreview = z.object({
  ruleId: z.string(),
  title: z.string(),
  severity: Severity,
  enabled: z.boolean().describe('A disabled rule is previewed too, so it can be tried before it is turned on.'),
  pagesInScope: z.number().int().describe('Pages the scope selects and the condition could be decided on.'),
  pagesFailing: z.number().int().describe('Pages the rule fires on: each would be one finding.'),
  pagesNotApplicable: z
    .number()
    .int()
    .describe('Pages in scope where a condition was unknown (e.g. a rendered-DOM selector on a page the crawl did not render).'),
  samples: z.array(z.object({ url: z.string(), pageId: Id, message: z.string() })),
  error: RuleError.nullable().describe('Set when the rule was stopped (it ran past its time budget): its counts cover the pages before.'),
});

export const RulePackPreview = z
  .object({
    projectId: Id,
    reportId: Id,
    crawlId: Id,
    pagesEvaluated: z
      .number()
      .int()
      .describe(
        "Pages of the report the rules were run over; fewer than the report's when the preview reached its deadline first (its rules' errors say so).",
      ),
    rules: z.array(RulePreview).describe('In pack order.'),
  })
  .meta({ id: 'RulePackPreview' });
export type RulePackPreview = z.infer<typeof RulePackPreview>;
