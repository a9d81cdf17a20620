import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';
import { LabP75Changes } from '../reports/lab-distribution.ts';
import { Grade, Severity } from '../reports/report.ts';

/**
 * A yes/no query parameter: `true`/`false` in a query string, a real boolean from the SDK
 * or an MCP tool. `z.coerce.boolean()` would read the string "false" as true.
 */
const QueryFlag = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true');

export const DiffQuery = z.strictObject({
  old: Id.describe('The earlier report (the "before").'),
  new: Id.describe('The later report (the "after").'),
  allowCrossSite: QueryFlag.default(false).describe(
    'Compare reports of two different sites (their pages are then matched by path and query). Without it such a pair is refused with 400 reports_not_comparable.',
  ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe('Most entries in each list of the answer, 1–1000; every list keeps its true total.'),
});

const DiffedReport = z.object({
  id: Id,
  url: z.string().describe('The start URL.'),
  createdAt: Timestamp,
  score: z.number().int().nullable(),
  grade: Grade.nullable(),
});

const Change = z.object({
  before: z.number().int().nullable(),
  after: z.number().int().nullable(),
  delta: z.number().int().nullable().describe('after − before; null when either is null.'),
});

const Count = z.object({ before: z.number().int(), after: z.number().int(), delta: z.number().int() });

const UrlList = z.object({
  total: z.number().int(),
  urls: z.array(z.string()).describe('Sorted by URL; at most `limit`.'),
});

const IssueGroup = z.object({
  ruleId: z.string(),
  title: z.string(),
  severity: Severity.describe('The worst severity among these findings.'),
  total: z.number().int().describe('URLs of this rule in the list (all of them, not only those shown).'),
  urls: z.array(z.string()).describe('Sorted by URL; at most `limit`.'),
});

const IssueChanges = z.object({
  total: z.number().int().describe('Issues, one per rule and URL.'),
  rules: z.number().int().describe('Rules with at least one of them.'),
  byRule: z.array(IssueGroup).describe('Errors first, then warnings, then notices, each by rule id; at most `limit` rules.'),
});

const Cause = z
  .string()
  .nullable()
  .describe(
    'Why the URL had no HTTP status, or what went wrong with the one it had, in words: blocked by robots.txt, no such host, connection refused, timed out, TLS error, redirect loop, too many redirects…; null when it answered normally.',
  );

const StatusChange = z.object({
  url: z.string(),
  before: z.number().int().nullable().describe('HTTP status; null when the URL did not answer (beforeCause says why).'),
  after: z.number().int().nullable().describe('HTTP status; null when the URL did not answer (afterCause says why).'),
  beforeCause: Cause,
  afterCause: Cause,
});

/** Why a URL does not answer with a page: the kinds a client can count and filter on. */
const MissingPageKind = z
  .enum(['not-found', 'client-error', 'server-error', 'redirect-error', 'blocked-by-robots', 'no-answer', 'not-linked', 'not-reached'])
  .describe(
    'not-found: 404 or 410; client-error: another 4xx; server-error: 5xx; redirect-error: a redirect loop, too many or an invalid redirect; ' +
      'blocked-by-robots: robots.txt disallows it; no-answer: the request failed (cause says why: no such host, timed out…); ' +
      'not-linked: the new crawl did not find the URL at all (no longer linked, or out of its scope); not-reached: found, but the crawl stopped (page cap or time) before fetching it.',
  );

const MissingPage = z.object({
  url: z.string(),
  status: z.number().int().nullable().describe('The HTTP status in the new report; null when there was none.'),
  kind: MissingPageKind,
  cause: z.string().describe('The same in words, such as "answers 404", "blocked by robots.txt", "no such host".'),
});

const MissingPageList = z.object({
  total: z.number().int(),
  pages: z.array(MissingPage).describe('Sorted by URL; at most `limit`.'),
});

const TitleChange = z.object({
  url: z.string(),
  before: z.string().nullable().describe('null: the page had no title.'),
  after: z.string().nullable(),
});

export const ReportDiff = z
  .object({
    old: DiffedReport,
    new: DiffedReport,
    matchedBy: z
      .enum(['url', 'path'])
      .describe(
        'url: pages are the same when their normalized URLs are equal (both reports start on the same origin); path: when their path and query are (the origin changed: http → https, www, or another site).',
      ),
    score: Change.describe('The health score.'),
    lab: LabP75Changes.nullable().describe(
      "The p75 of each lab metric (LCP, CLS, TBT, TTFB) before and after; null when neither report's crawl rendered its pages.",
    ),
    severities: z.object({ errors: Count, warnings: Count, notices: Count }).describe('Findings (one per rule and URL) by severity.'),
    pages: z.object({
      before: z.number().int(),
      after: z.number().int(),
      added: UrlList.describe(
        'Crawled in the new report only and answering with a page (2xx, or a 3xx whose redirect did not fail; URLs of the new report). A new URL that does not is in `broken`.',
      ),
      broken: MissingPageList.describe(
        'Crawled in the new report only and not answering with a page: 4xx, 5xx, a failed redirect, no answer, or blocked by robots.txt, each with its cause (URLs of the new report).',
      ),
      removed: UrlList.describe(
        'Crawled in the old report only, whatever they answered then (URLs of the old report). `gone` says which of the old pages are gone, and why.',
      ),
      gone: MissingPageList.describe(
        'Pages that answered with a page in the old report (2xx, or a 3xx whose redirect did not fail) and do not in the new one: now 404 or another error, ' +
          'blocked by robots.txt, without an answer, or not crawled at all (no longer linked, or not reached), each with its cause (URLs of the old report). ' +
          'Their findings are not resolved: they are in issues.onGonePages.',
      ),
    }),
    issues: z.object({
      new: IssueChanges.describe('Findings of the new report whose rule and URL the old report did not have.'),
      resolved: IssueChanges.describe(
        'Findings of the old report whose rule and URL the new report does not have, on pages still there: crawled again and answering with a page (2xx, or a 3xx whose redirect did not fail). ' +
          'A page fixed since (a 404 now answering 200) counts; a page gone does not (see onGonePages). Site-level findings count on the URL they name. URLs of the old report.',
      ),
      onGonePages: IssueChanges.describe(
        'Findings of the old report whose page no longer answers with a page or was not crawled again (pages.gone, and old error pages no longer crawled): gone with their page, not resolved. URLs of the old report.',
      ),
    }),
    changed: z.object({
      status: z.object({ total: z.number().int(), pages: z.array(StatusChange).describe('Sorted by URL; at most `limit`.') }),
      title: z.object({ total: z.number().int(), pages: z.array(TitleChange).describe('Sorted by URL; at most `limit`.') }),
    }),
  })
  .meta({ id: 'ReportDiff' });
export type ReportDiff = z.infer<typeof ReportDiff>;
