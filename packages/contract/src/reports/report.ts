import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';
import { RuleError } from '../rules/rule-error.ts';
import { LabDistribution } from './lab-distribution.ts';
import { PageLab } from './page-lab.ts';

export const Severity = z.enum(['error', 'warning', 'notice']);
export type Severity = z.infer<typeof Severity>;
export const Grade = z.enum(['A', 'B', 'C', 'D', 'F']);

export const Health = z
  .object({
    score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('Loupe Health, 0–100; null when the crawl found no HTML page or was blocked.'),
    grade: Grade.nullable().describe('A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below.'),
    colour: z.enum(['green', 'amber', 'red']).nullable(),
    exactScore: z.number().nullable(),
    unscoredReason: z.enum(['blocked', 'no-html-page']).nullable(),
    scoredUrls: z.number().int().describe('HTML pages plus internal URLs that failed (4xx, 5xx, no answer).'),
    errorFreeShare: z.number().nullable().describe('Share of scored URLs with no error-level finding.'),
    margin: z.number().nullable().describe('95 % margin in score points when the crawl is partial.'),
  })
  .meta({ id: 'Health' });

export const SeverityCounts = z.object({
  errors: z.number().int(),
  warnings: z.number().int(),
  notices: z.number().int(),
});

/** One URL a rule fired on, with what was found there. */
export const IssueExample = z.object({
  url: z.string(),
  pageId: Id.nullable(),
  count: z.number().int(),
  samples: z.array(z.string()),
  detail: z.string().nullable(),
});

export const ReportIssue = z
  .object({
    ruleId: z.string(),
    category: z.string(),
    severity: Severity.describe('The worst severity among its findings.'),
    scope: z.enum(['page', 'site']),
    title: z.string(),
    explanation: z.string(),
    fix: z.string(),
    pages: z.number().int().describe('URLs it fired on (0 for a site-level finding).'),
    instances: z.number().int().describe('Instances across those URLs (e.g. broken links).'),
    share: z.number().nullable().describe('For a site-level finding: the share affected.'),
    lostPoints: z.number().describe('Points of the score this rule costs.'),
    scoreWithout: z.number().int().nullable().describe('The score if every finding of this rule were fixed.'),
    gain: z.number().describe('scoreWithout − score, unrounded.'),
    examples: z.array(IssueExample).describe('Up to five URLs.'),
  })
  .meta({ id: 'ReportIssue' });

export const CategorySummary = SeverityCounts.extend({
  category: z.string(),
  lostPoints: z.number(),
});

export const TopFix = z.object({
  ruleId: z.string(),
  title: z.string(),
  scoreWithout: z.number().int(),
  gain: z.number(),
});

export const ReportShare = z
  .object({
    token: z.string(),
    url: z.string().describe("The public HTML page, an absolute URL on the instance's public address (LOUPE_PUBLIC_URL): …/r/{token}."),
    apiUrl: z.string().describe('The same report as JSON, without authentication, an absolute URL: …/api/v1/shared/{token}.'),
    sharedAt: Timestamp,
  })
  .meta({ id: 'ReportShare' });

const reportFields = {
  id: Id,
  crawlId: Id,
  projectId: Id.nullable(),
  url: z.string().describe('The start URL.'),
  mode: z.enum(['site', 'page']),
  completeness: z.enum(['complete', 'partial']).describe('partial: canceled, failed, or stopped at maxPages.'),
  createdAt: Timestamp,
};

export const ReportSummary = z
  .object({
    ...reportFields,
    score: z.number().int().nullable(),
    grade: Grade.nullable(),
    pages: z.number().int(),
    ...SeverityCounts.shape,
    shared: z.boolean(),
  })
  .meta({ id: 'ReportSummary' });
export type ReportSummary = z.infer<typeof ReportSummary>;

export const Report = z
  .object({
    ...reportFields,
    health: Health,
    pages: z.object({
      crawled: z.number().int(),
      html: z.number().int(),
      failed: z.number().int(),
      redirects: z.number().int(),
      blockedByRobots: z.number().int(),
    }),
    linkChecks: z
      .object({
        checked: z.number().int().describe('Images, scripts, stylesheets and links to other sites asked whether they answer.'),
        notChecked: z
          .object({
            overCap: z.number().int().describe("Beyond the crawl's cap on link checks."),
            timeBudget: z.number().int().describe('Still waiting when the time for checks after the last page ran out.'),
            turnedOff: z
              .number()
              .int()
              .describe('Links, scripts and stylesheets of other sites, in a crawl with checkExternalLinks false.'),
          })
          .describe('Links kept but never asked: nothing is known of them, and they count as no broken link.'),
      })
      .optional()
      .describe('Absent in reports built before link checks were counted.'),
    counts: SeverityCounts.describe('Findings (one per rule and URL) by severity.'),
    categories: z.array(CategorySummary),
    issues: z.array(ReportIssue).describe('By points lost, largest first.'),
    topFixes: z.array(TopFix).describe('The five rules whose fix gains most.'),
    ruleErrors: z.array(RuleError).describe('Custom rules stopped during the build (past their time budget), in pack order.'),
    lab: LabDistribution.nullable().describe(
      "A rendering crawl's lab metrics over its pages: percentiles and counts on Google's thresholds; null for a crawl that did not render.",
    ),
    share: ReportShare.nullable(),
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof Report>;

/** The report as its public share link shows it: no workspace ids, no share details. */
export const SharedReport = Report.omit({ crawlId: true, projectId: true, share: true }).meta({ id: 'SharedReport' });
export type SharedReport = z.infer<typeof SharedReport>;

/** A rule's id, built-in or custom: `category/name` in lower case (`titles/missing`). */
export const RuleId = z
  .string()
  .max(100)
  .regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, 'Must be category/name in lower case, e.g. content/placeholder-copy.');

export const pageSortKeys = [
  'url',
  'score',
  'status',
  'depth',
  'errors',
  'warnings',
  'notices',
  'responseMs',
  'bytes',
  'inlinks',
  'words',
  'lcpMs',
  'cls',
  'tbtMs',
] as const;

/** The page index's lab filters: a metric and a rating, `lcpMs:poor`. */
export const labFilters = (['lcpMs', 'cls', 'tbtMs'] as const).flatMap(
  (metric) => [`${metric}:good`, `${metric}:needs-improvement`, `${metric}:poor`] as const,
);
export type LabFilter = (typeof labFilters)[number];

export const ListReportPagesQuery = z.strictObject({
  sort: z
    .enum(pageSortKeys)
    .default('url')
    .describe('Column to sort by. Pages without a lab reading (lcpMs, cls, tbtMs) sort as the lowest.'),
  order: z.enum(['asc', 'desc']).default('asc'),
  ruleId: RuleId.optional().describe('Only pages a rule fired on, e.g. titles/missing.'),
  statusClass: z.enum(['2xx', '3xx', '4xx', '5xx', 'failed']).optional().describe('Only pages whose answer is in this class.'),
  lab: z
    .enum(labFilters)
    .optional()
    .describe('Only pages whose lab reading of a metric rates so on labThresholds, e.g. lcpMs:poor (LCP over 4 s).'),
});

export const ReportPage = z
  .object({
    id: Id,
    url: z.string(),
    status: z.number().int().nullable(),
    fetchError: z.string().nullable(),
    contentType: z.string().nullable(),
    title: z.string().nullable(),
    score: z.number().nullable().describe('Per-page score 0–100; null for URLs that are not scored (redirects, assets).'),
    ...SeverityCounts.shape,
    depth: z.number().int(),
    inlinks: z.number().int(),
    words: z
      .number()
      .int()
      .nullable()
      .describe(
        "Words of the page's main content (without the menus, headers, footers and sidebars the site repeats): what content/thin counts; null for URLs that are not HTML pages.",
      ),
    responseMs: z.number().int().nullable(),
    bytes: z.number().int().nullable(),
    indexable: z.boolean().nullable(),
    lcpMs: z.number().nullable().describe("The browser's largest contentful paint, in a rendering crawl; null otherwise."),
    cls: z.number().nullable().describe('Cumulative layout shift, in a rendering crawl.'),
    tbtMs: z.number().nullable().describe('Total blocking time, in a rendering crawl.'),
  })
  .meta({ id: 'ReportPage' });
export type ReportPage = z.infer<typeof ReportPage>;

export const PageFinding = z.object({
  ruleId: z.string(),
  category: z.string(),
  severity: Severity,
  title: z.string(),
  fix: z.string(),
  count: z.number().int(),
  samples: z.array(z.string()).describe('The first three instances.'),
  kept: z
    .number()
    .int()
    .describe(
      'Instances listed one by one (listIssueInstances with this pageId gives them all); fewer than count when the rule counted more than it lists, e.g. over 1,000 on one URL.',
    ),
  detail: z.string().nullable(),
});

/** One instance of a finding: which image, which link, which value, on which URL. */
export const IssueInstance = z
  .object({
    ruleId: z.string(),
    pageId: Id.nullable().describe('The page it was found on, as in getReportPage; null for a finding about the whole site.'),
    url: z.string().describe('The URL it was found on; for a finding about the whole site, its robots.txt, sitemap or start URL.'),
    severity: Severity,
    instance: z
      .string()
      .nullable()
      .describe(
        'What was found: the image, the link target, the element or the value, at most 160 characters; null when the rule counts without listing (too many links, a deep page).',
      ),
    detail: z.string().nullable().describe('The measured value of the finding on this URL: "74 characters", "40 of 52 images".'),
    position: z.number().int().describe('Its place among the instances on this URL, from 1.'),
    count: z.number().int().describe('Instances the rule counted on this URL.'),
    kept: z
      .number()
      .int()
      .describe('Of those, how many are listed; fewer than count when the rule counted more than it lists, e.g. over 1,000 on one URL.'),
  })
  .meta({ id: 'IssueInstance' });
export type IssueInstance = z.infer<typeof IssueInstance>;

export const ListIssueInstancesQuery = z.strictObject({
  pageId: Id.optional().describe('Only the instances on this page.'),
});

export const ReportPageDetail = ReportPage.extend({
  finalUrl: z.string().nullable(),
  redirects: z.array(z.object({ url: z.string(), status: z.number().int() })),
  headers: z.record(z.string(), z.string()),
  ttfbMs: z.number().int().nullable(),
  description: z.string().nullable(),
  h1: z.string().nullable(),
  canonical: z.string().nullable(),
  lang: z.string().nullable(),
  findings: z.array(PageFinding),
  lab: PageLab.nullable().describe("The browser's lab reading, in a rendering crawl; null otherwise."),
  hasScreenshot: z.boolean().describe('getReportPageScreenshot answers a JPEG of the first screen.'),
}).meta({ id: 'ReportPageDetail' });
export type ReportPageDetail = z.infer<typeof ReportPageDetail>;

/** What a link is: an `<a>`, an `<img>`, a canonical or hreflang `<link>`, or a script or stylesheet the page loads. */
export const LinkKind = z.enum(['link', 'image', 'canonical', 'hreflang', 'resource']);

export const PageLink = z
  .object({
    sourceId: Id.describe('The linking page, as in getReportPage.'),
    sourceUrl: z.string(),
    targetId: Id.nullable().describe('The target in the report (a page, asset or external URL); null when the crawl did not queue it.'),
    targetUrl: z.string(),
    kind: LinkKind.describe('resource: a `<script src>` or a `<link rel="stylesheet">`.'),
    element: z
      .enum(['a', 'img', 'link', 'script'])
      .nullable()
      .describe('The element that names the target; null for links stored before it was kept.'),
    anchor: z
      .string()
      .nullable()
      .describe(
        "The first anchor text (an image's alt) the page gives the target, collapsed, at most 200 characters; null when no occurrence has one.",
      ),
    anchors: z
      .array(z.string())
      .describe(
        'Every distinct anchor text (or alt) of the occurrences, in page order, `anchor` first: at most 10, each at most 200 characters; empty when none has one.',
      ),
    occurrences: z
      .number()
      .int()
      .min(1)
      .describe(
        'How many times the source page names the target as this kind (a menu, the body and a footer count 3); 1 for links stored before it was counted.',
      ),
    nofollow: z
      .boolean()
      .describe(
        'Every occurrence has rel=nofollow. One followed occurrence is enough for search engines to follow the target and pass it link equity, so a link named both ways is not nofollow (see partlyNofollow).',
      ),
    partlyNofollow: z
      .boolean()
      .describe('Some occurrences have rel=nofollow and others do not: the link is followed, but the page disagrees with itself.'),
    sponsored: z.boolean().describe('Every occurrence has rel=sponsored.'),
    ugc: z.boolean().describe('Every occurrence has rel=ugc.'),
    status: z.number().int().nullable().describe("The target's HTTP status; null when it gave none or was not checked."),
    finalUrl: z.string().nullable().describe('Where the target led after redirects, when that differs from it.'),
    reason: z
      .string()
      .nullable()
      .describe(
        'Why the target has no usable answer, in words: no such host, connection refused, timed out, TLS error, blocked by robots.txt, redirect loop, too many redirects, not checked: over the cap…; null when it answered.',
      ),
  })
  .meta({ id: 'PageLink' });
export type PageLink = z.infer<typeof PageLink>;

/** The failure reasons a link list filters on (the words of `reason`, as slugs). */
export const linkFailureReasons = [
  'no-such-host',
  'connection-refused',
  'timed-out',
  'tls-error',
  'connection-reset',
  'address-not-allowed',
  'blocked-by-robots',
  'redirect-loop',
  'too-many-redirects',
  'invalid-redirect',
  'network-error',
  'not-checked-over-the-cap',
  'not-checked-time-budget',
  'not-checked-turned-off',
] as const;
export type LinkFailureReason = (typeof linkFailureReasons)[number];

export const ListReportLinksQuery = z.strictObject({
  kind: LinkKind.optional().describe('Only links of this kind.'),
  target: z
    .enum(['internal', 'external'])
    .optional()
    .describe(
      "internal: the target is a page or asset of the site; external: another site's URL. Targets the crawl did not queue match neither.",
    ),
  statusClass: z
    .enum(['2xx', '3xx', '4xx', '5xx', 'failed', 'not-checked', 'broken'])
    .optional()
    .describe(
      'Only links whose target answered in this class; failed: no answer (reason says why); not-checked: never asked; broken: 4xx, 5xx or an error (failed, redirect loop…).',
    ),
  reason: z.enum(linkFailureReasons).optional().describe('Only links whose target failed for this reason, e.g. no-such-host.'),
});

export const LinksExportQuery = z.strictObject({
  format: z
    .enum(['csv', 'json'])
    .default('json')
    .describe('csv: one row per broken link; json: {"links": [...]}, each as listReportLinks gives it.'),
});

export const ListReportsQuery = z.strictObject({
  projectId: Id.optional().describe('Only reports of this project.'),
});

export const ExportQuery = z.strictObject({
  format: z
    .enum(['csv', 'json'])
    .default('json')
    .describe('csv: one row per instance of each finding; json: the report, its pages and findings, each with its instances.'),
});

export const AuditRule = z
  .object({
    id: z.string().describe('category/name, as in findings.'),
    category: z.string(),
    severity: Severity.describe('The default severity; some findings escalate it.'),
    weight: z
      .number()
      .describe('What one finding of it takes off a page in the health score (error 0.5, warning 0.15, notice 0.02 unless overridden).'),
    scope: z.enum(['page', 'site']).describe('page: decided from one response; site: needs the whole crawl.'),
    title: z.string(),
    explanation: z.string(),
    fix: z.string(),
  })
  .meta({ id: 'AuditRule' });
