import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { distinctItems } from '../common/distinct-items.ts';
import { freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { CrawlStatus, StartCrawl } from '../crawls/crawl.ts';
import { LabP75s } from '../reports/lab-distribution.ts';
import { Grade } from '../reports/report.ts';

const SiteUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .describe('The site this project audits; crawls start here unless told otherwise.');

/**
 * StartCrawl's fields, every one optional and without its default: a project's defaults and a
 * project crawl's overrides hold only what was said, so that an unsaid field falls through to
 * the next layer (override → project default → server default) instead of a default masking it.
 */
const optionalCrawlFields = Object.fromEntries(
  Object.entries(StartCrawl.shape).map(([name, field]) => {
    const bare = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field;
    return [name, (field.description ? bare.describe(field.description) : bare).optional()];
  }),
) as { [K in keyof typeof StartCrawl.shape]: z.ZodOptional<z.ZodType<z.output<(typeof StartCrawl.shape)[K]>>> };
const CrawlFields = z.strictObject(optionalCrawlFields);

/** The crawl options a project keeps as its defaults: everything of StartCrawl but the target and the project. */
export const CrawlDefaults = CrawlFields.omit({ url: true, projectId: true }).meta({ id: 'CrawlDefaults' });
export type CrawlDefaults = z.output<typeof CrawlDefaults>;

const RulePackIds = distinctItems(z.array(Id).max(20), 'Rule packs must not repeat.').describe(
  'Custom rule packs run in every crawl of the project, after the built-in checks.',
);

export const LatestReport = z.object({
  id: Id,
  createdAt: Timestamp,
  score: z.number().int().nullable(),
  grade: Grade.nullable(),
});

/** An audit project (DESIGN.md §8): a site, its crawl defaults and attached rule packs, with its crawls, reports and trend. */
export const AuditProject = z
  .object({
    id: Id,
    name: z.string(),
    siteUrl: z.string(),
    crawlDefaults: CrawlDefaults,
    rulePackIds: z.array(Id),
    latestReport: LatestReport.nullable().describe('The newest report filed under the project.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'AuditProject' });
export type AuditProject = z.infer<typeof AuditProject>;

const Name = freeText({ max: 100 });

export const CreateAuditProject = z.strictObject({
  name: Name,
  siteUrl: SiteUrl,
  crawlDefaults: CrawlDefaults.optional(),
  rulePackIds: RulePackIds.optional(),
});
export type CreateAuditProject = z.input<typeof CreateAuditProject>;

export const UpdateAuditProject = atLeastOneField(
  z.strictObject({
    name: Name.optional(),
    siteUrl: SiteUrl.optional(),
    crawlDefaults: CrawlDefaults.optional().describe('Replaces the defaults entirely.'),
    rulePackIds: RulePackIds.optional().describe('Replaces the attached packs.'),
  }),
  'Send at least one field to change.',
);
export type UpdateAuditProject = z.input<typeof UpdateAuditProject>;

/** A project crawl: the project's defaults, overridden field by field by what is sent. */
export const StartProjectCrawl = CrawlFields.omit({ projectId: true }).describe(
  "Any crawl option; the URL defaults to the project's site and the rest to its crawl defaults.",
);
export type StartProjectCrawl = z.input<typeof StartProjectCrawl>;

export const TrendPoint = z.object({
  reportId: Id,
  crawlId: Id,
  createdAt: Timestamp,
  completeness: z.enum(['complete', 'partial']),
  score: z.number().int().nullable(),
  grade: Grade.nullable(),
  pages: z.number().int(),
  errors: z.number().int(),
  warnings: z.number().int(),
  notices: z.number().int(),
  lab: LabP75s.nullable().describe("The p75s of the report's lab metrics; null when its crawl did not render."),
});

export const ProjectTrend = z
  .object({
    projectId: Id,
    points: z.array(TrendPoint).describe('Oldest first.'),
  })
  .meta({ id: 'ProjectTrend' });
export type ProjectTrend = z.infer<typeof ProjectTrend>;

export const TrendQuery = z.strictObject({
  since: z.iso.datetime({ offset: true }).optional().describe('Only reports made at or after this time.'),
  points: z.coerce.number().int().min(1).max(1000).default(100).describe('The newest this many reports.'),
});

export const ListProjectCrawlsQuery = z.strictObject({
  status: CrawlStatus.optional().describe('Only crawls in this state; by default every crawl of the project, newest first.'),
});
