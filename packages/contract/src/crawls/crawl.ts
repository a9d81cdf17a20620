import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';

export const crawlStatuses = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export const CrawlStatus = z.enum(crawlStatuses);
export type CrawlStatus = z.infer<typeof CrawlStatus>;

const Glob = z.string().min(1).max(500);

/**
 * Credits a page costs when the crawl renders it in a browser (issue #28), against one raw:
 * the price scraping APIs charge for JavaScript rendering (ScrapingBee, ZenRows: 5×), while a
 * rendered page takes tens of times the machine time of a fetched one.
 */
export const RENDERED_PAGE_CREDITS = 5;
const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Not an HTTP header name.');

/** The crawl request of DESIGN.md §8. */
export const StartCrawl = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('The site (mode site) or page (mode page) to audit.'),
  mode: z.enum(['site', 'page']).default('site').describe('`page` audits one URL: a one-page crawl.'),
  projectId: Id.optional().describe('File the report under this audit project.'),
  maxPages: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe("Pages to crawl at most; defaults to and is clamped to the plan's cap. Reserves this many credits."),
  maxDepth: z.number().int().min(0).max(100).optional().describe('Clicks from the start URL; unlimited when omitted.'),
  include: z.array(Glob).max(50).optional().describe('Only URLs whose path matches one of these globs, e.g. `/docs/**`.'),
  exclude: z.array(Glob).max(50).optional().describe('Never URLs whose path matches one of these globs.'),
  respectRobots: z.boolean().default(true),
  sitemaps: z.boolean().default(true).describe('Also start from the URLs listed in the sitemaps.'),
  concurrency: z.number().int().min(1).max(32).default(4).describe('Requests in flight to the site at once.'),
  delayMs: z.number().int().min(0).max(60_000).default(0).describe('Pause between requests to the site.'),
  checkExternalLinks: z
    .boolean()
    .default(true)
    .describe(
      "Check that links, scripts and stylesheets of other sites answer (never crawled, no credit); false reports them as not checked. The site's own images, scripts and stylesheets are always checked.",
    ),
  render: z
    .boolean()
    .default(false)
    .describe(
      `Also load each HTML page in headless Chromium: the rendered DOM goes through the page checks (and rule packs' \`dom: "rendered"\`), links found only after JavaScript are followed, and each page gets lab metrics (LCP, CLS, TBT, TTFB, transfers), axe-core accessibility checks and a screenshot. The raw HTML is still fetched and kept. Costs ${RENDERED_PAGE_CREDITS} credits per page instead of one.`,
    ),
  accessibility: z
    .boolean()
    .default(true)
    .describe(
      "With `render`: run axe-core's accessibility checks (WCAG 2.2 A and AA, best practices) on each rendered page. They take most of a rendered page's machine time (about 0.4 s of CPU): false renders about three times as many pages a second, and the basic accessibility checks of the HTML still run.",
    ),
  userAgent: z.string().min(1).max(256).optional(),
  headers: z
    .record(HeaderName, z.string().max(4096))
    .refine((headers) => Object.keys(headers).length <= 20, 'At most 20 headers.')
    .optional()
    .describe('Extra request headers, e.g. for a staging site behind a token.'),
});
export type StartCrawl = z.input<typeof StartCrawl>;

const PhaseCount = z.object({
  done: z.number().int().min(0),
  total: z.number().int().min(0).describe('Known so far: it grows as the crawl finds more.'),
});

export const crawlPhases = ['pages', 'links', 'report', 'done'] as const;

/** One of the last requests a crawl made, for its live page (issue #24, point 6). */
export const RecentFetch = z
  .object({
    url: z.string(),
    kind: z.enum(['page', 'link']).describe('`page`: a page of the site fetched; `link`: an asset or a link to another site checked.'),
    status: z.number().int().nullable().describe('The HTTP status of the answer; null when none came.'),
    error: z
      .string()
      .nullable()
      .describe(
        'Why the request failed, as counted in `errors` (`dns`, `refused`, `timeout`, `tls`, `blocked-by-robots`, `loop`, …); null when it did not.',
      ),
    at: Timestamp,
  })
  .meta({ id: 'RecentFetch' });
export type RecentFetch = z.infer<typeof RecentFetch>;

/** What a started crawl is doing (issue #23, point 2): never "500 of 500" for minutes without a word why. */
export const CrawlProgress = z
  .object({
    phase: z
      .enum(crawlPhases)
      .describe(
        '`pages`: fetching pages (links are checked meanwhile); `links`: every page fetched, the remaining link checks run; `report`: building the report; `done`: the crawl has ended (see status).',
      ),
    pages: PhaseCount.describe('Pages fetched, of those found so far (total at most maxPages).'),
    links: PhaseCount.describe('Asset and external links checked (or settled without a request), of those found so far.'),
    pagesPerSecond: z
      .number()
      .min(0)
      .nullable()
      .describe('Pages fetched a second over the last few seconds; null when not yet known or past the pages phase.'),
    linksPerSecond: z
      .number()
      .min(0)
      .nullable()
      .describe('Links checked a second over the last few seconds; null when not yet known or past the links phase.'),
    phaseStartedAt: Timestamp.describe('When the crawl entered this phase.'),
    secondsLeft: z
      .number()
      .int()
      .min(0)
      .nullable()
      .describe(
        'An estimate of the seconds left in this phase, from its rate and what is left of it; null when not known (no rate yet) or past the links phase.',
      ),
    errors: z
      .record(z.string(), z.number().int().min(0))
      .describe(
        'Pages and links that failed so far, by kind: `4xx` and `5xx` answers, and why no answer came (`dns`, `refused`, `timeout`, `tls`, `reset`, `blocked-by-robots`, `loop`, `too-many-redirects`, `network`, …).',
      ),
    recent: z.array(RecentFetch).describe('The last requests made (at most 10), newest first.'),
  })
  .meta({ id: 'CrawlProgress' });
export type CrawlProgress = z.infer<typeof CrawlProgress>;

export const Crawl = z
  .object({
    id: Id,
    status: CrawlStatus,
    url: z.string(),
    mode: z.enum(['site', 'page']),
    projectId: Id.nullable(),
    maxPages: z.number().int(),
    capped: z.boolean().describe("maxPages was lowered to the plan's cap."),
    render: z.boolean().describe(`Pages are rendered in a browser (${RENDERED_PAGE_CREDITS} credits each).`),
    pagesCrawled: z.number().int(),
    progress: CrawlProgress.nullable().describe('The phase, counts and rates of a started crawl; null while it is queued.'),
    creditsReserved: z.number().int(),
    creditsCharged: z
      .number()
      .int()
      .nullable()
      .describe(`One per crawled page (${RENDERED_PAGE_CREDITS} per rendered one), once the crawl has ended.`),
    reportId: Id.nullable(),
    error: z.string().nullable(),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Crawl' });
export type Crawl = z.infer<typeof Crawl>;

/** What starting a crawl would reserve (DESIGN.md §6), asked before starting it. */
export const CrawlEstimate = z
  .object({
    maxPages: z.number().int().describe("The crawl's maxPages after the plan's cap."),
    capped: z.boolean().describe("The maxPages asked for was lowered to the plan's cap."),
    creditsPerPage: z.number().int().describe(`1, or ${RENDERED_PAGE_CREDITS} when the crawl renders its pages.`),
    credits: z.number().int().describe('maxPages × creditsPerPage: the credits starting it would reserve.'),
    balance: z.number().int().describe('Credits the workspace has now.'),
    sufficient: z.boolean().describe('Whether the balance covers `credits`: starting now would not answer 402.'),
  })
  .meta({ id: 'CrawlEstimate' });
export type CrawlEstimate = z.infer<typeof CrawlEstimate>;

export const ListCrawlsQuery = z.strictObject({
  status: CrawlStatus.optional().describe('Only crawls in this state; by default queued and running ones.'),
});

export const CrawlEvent = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('status'),
      status: CrawlStatus,
      reportId: Id.nullable().optional().describe('Set on the final status once the report exists.'),
    }),
    z.object({
      type: z.literal('progress').describe('Sent when any of the progress changes: at once on a change of phase.'),
      pagesCrawled: z.number().int(),
      maxPages: z.number().int(),
      lastUrl: z.string().describe("The URL fetched last when the count was written ('' before the first)."),
      ...CrawlProgress.shape,
    }),
  ])
  .meta({ id: 'CrawlEvent' });
export type CrawlEvent = z.infer<typeof CrawlEvent>;
