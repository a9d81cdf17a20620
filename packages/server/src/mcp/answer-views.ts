import { Report, ReportIssue, Severity } from '@loupe/contract';
import { z } from 'zod';

/**
 * A tool that answers part of an operation's answer: an agent reads every answer into its
 * context, and a full report of a large site runs to tens of KB. The view takes arguments of
 * its own (never sent to the API) and answers an object of its output schema.
 */
export interface AnswerView {
  /** The tool's name: the operation's own tool when it replaces its answer, another beside it. */
  name: string;
  operationId: string;
  title: string;
  description: string;
  fields: Record<string, z.ZodType>;
  output: z.ZodObject;
  answer(raw: unknown, args: Record<string, unknown>): Record<string, unknown>;
}

const TOP_ISSUES = 10;

const IssueHeadline = ReportIssue.omit({ explanation: true, examples: true });

const ReportDigest = Report.omit({ issues: true }).extend({
  topIssues: z
    .array(IssueHeadline)
    .describe(`The ${TOP_ISSUES} issues costing most points, without explanation or example URLs (list_report_issues has them).`),
  issueCount: z.number().int().describe('Issues in the whole report.'),
});

function digest(raw: unknown): Record<string, unknown> {
  const { issues, ...report } = raw as Report;
  return {
    ...report,
    topIssues: issues.slice(0, TOP_ISSUES).map(({ explanation: _, examples: __, ...headline }) => headline),
    issueCount: issues.length,
  };
}

const IssuePage = z.object({
  items: z.array(ReportIssue),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  total: z.number().int().describe('Issues matching the filters.'),
});

/** The report's issues in full, filtered and one page at a time (an offset as the cursor: a report never changes). */
function issuePage(raw: unknown, args: Record<string, unknown>): Record<string, unknown> {
  const { issues } = raw as Report;
  const matching = issues.filter(
    (issue) =>
      (args.ruleId === undefined || issue.ruleId === args.ruleId) &&
      (args.severity === undefined || issue.severity === args.severity) &&
      (args.category === undefined || issue.category === args.category),
  );
  const from = args.cursor === undefined ? 0 : Number(args.cursor);
  const to = from + (args.limit as number);
  return { items: matching.slice(from, to), nextCursor: to < matching.length ? String(to) : null, total: matching.length };
}

export const answerViews: readonly AnswerView[] = [
  {
    name: 'get_report',
    operationId: 'getReport',
    title: 'Get a report summary',
    description: `A crawl's report in brief: health score and grade, pages, findings by severity and category, the ${TOP_ISSUES} issues costing most points with their fix, and the top fixes. Free. Next: list_report_issues for every issue with its explanation and example URLs, list_report_pages for the pages, list_issue_instances for one issue's URLs.`,
    fields: {},
    output: ReportDigest,
    answer: digest,
  },
  {
    name: 'list_report_issues',
    operationId: 'getReport',
    title: "List a report's issues",
    description:
      "A report's issues in full, costing most points first: explanation, fix, points lost, score if fixed and up to five example URLs each; filter by ruleId, severity or category. Free. Next: list_issue_instances for every URL of one issue.",
    fields: {
      ruleId: z.string().min(1).max(200).optional(),
      severity: Severity.optional(),
      category: z.string().min(1).max(100).optional(),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z
        .string()
        .regex(/^\d{1,6}$/)
        .optional()
        .describe('The nextCursor of the previous page.'),
    },
    output: IssuePage,
    answer: issuePage,
  },
];
