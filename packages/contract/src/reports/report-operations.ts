import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import {
  AuditRule,
  ExportQuery,
  ListReportPagesQuery,
  ListReportsQuery,
  Report,
  ReportPage,
  ReportPageDetail,
  ReportShare,
  ReportSummary,
  SharedReport,
} from './report.ts';

const ReportParams = z.strictObject({ reportId: Id });
const PageParams = z.strictObject({ reportId: Id, pageId: Id });
const ShareParams = z.strictObject({
  token: z
    .string()
    .min(16)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});

export const reportOperations = [
  defineOperation({
    id: 'listAuditRules',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/audit-rules',
    summary: 'List the audit checks',
    description:
      'Every built-in check a crawl runs: id, category, severity, its weight in the health score, and the explanation and fix shown in reports. Free. Health = round(100 · P · S): P is the mean over scored URLs of the product of (1 − weight) of the distinct rules firing on each (0 for a URL answering 4xx/5xx or nothing); S is the product of (1 − weight · share) over site-level findings. Grades: A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below.',
    tag: 'Reports',
    scopes: ['reports:read'],
    output: z.array(AuditRule),
  }),
  defineOperation({
    id: 'listReports',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/reports',
    summary: 'List reports',
    description:
      "Summaries of the workspace's reports, newest first: score, grade, pages and findings by severity. Free. Next: getReport for one.",
    tag: 'Reports',
    scopes: ['reports:read'],
    query: ListReportsQuery,
    paged: true,
    output: ReportSummary,
  }),
  defineOperation({
    id: 'getReport',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/reports/{reportId}',
    summary: 'Get a report',
    description:
      'The full report of a crawl: health score and grade, findings by severity and category, every issue with its explanation, fix, the points it costs and the score if fixed, and the top fixes. Free. Next: listReportPages for the page index.',
    tag: 'Reports',
    scopes: ['reports:read'],
    params: ReportParams,
    output: Report,
  }),
  defineOperation({
    id: 'listReportPages',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/reports/{reportId}/pages',
    summary: 'List the pages of a report',
    description:
      "The page index: every URL the crawl fetched with its status, title, score and findings by severity; sortable, and filterable by rule or status class. Free. Next: getReportPage for one page's findings.",
    tag: 'Reports',
    scopes: ['reports:read'],
    params: ReportParams,
    query: ListReportPagesQuery,
    paged: true,
    output: ReportPage,
  }),
  defineOperation({
    id: 'getReportPage',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/reports/{reportId}/pages/{pageId}',
    summary: 'Get one page of a report',
    description:
      'One crawled URL: its answer, redirects, headers, title and description, and every finding on it with how to fix it. Free.',
    tag: 'Reports',
    scopes: ['reports:read'],
    params: PageParams,
    output: ReportPageDetail,
  }),
  defineOperation({
    id: 'shareReport',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/reports/{reportId}/share',
    summary: 'Share a report',
    description:
      'Makes the report readable without a key at a secret link: an HTML page (/r/{token}) and JSON (/api/v1/shared/{token}). Sharing a shared report returns its existing link. unshareReport takes it back.',
    tag: 'Reports',
    scopes: ['reports:write'],
    params: ReportParams,
    output: ReportShare,
  }),
  defineOperation({
    id: 'getReportShare',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/reports/{reportId}/share',
    summary: "Get a report's share link",
    description: 'The share link of a shared report; 404 when the report is not shared.',
    tag: 'Reports',
    scopes: ['reports:read'],
    params: ReportParams,
    output: ReportShare,
  }),
  defineOperation({
    id: 'unshareReport',
    api: 'workspace',
    method: 'DELETE',
    path: '/api/v1/reports/{reportId}/share',
    summary: 'Stop sharing a report',
    description: 'The share link stops working at once: its HTML page and JSON both answer 404. Sharing again makes a new link.',
    tag: 'Reports',
    scopes: ['reports:write'],
    params: ReportParams,
    output: Deleted,
  }),
  defineOperation({
    id: 'exportReport',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/reports/{reportId}/export',
    summary: 'Export a report',
    description:
      'Downloads the report: `format=csv`, one row per finding (URL, rule, severity, count, detail, samples); `format=json`, the report with its pages and their findings. Streamed, so any size works. Free.',
    tag: 'Reports',
    scopes: ['reports:read'],
    params: ReportParams,
    query: ExportQuery,
    output: z.unknown(),
    download: { contentTypes: ['application/json', 'text/csv'] },
  }),
  defineOperation({
    id: 'deleteReport',
    api: 'workspace',
    method: 'DELETE',
    path: '/api/v1/reports/{reportId}',
    summary: 'Delete a report',
    description: 'Deletes the report with its pages and findings, and its share link. The crawl stays, with no report. Cannot be undone.',
    tag: 'Reports',
    scopes: ['reports:write'],
    params: ReportParams,
    output: Deleted,
  }),
  defineOperation({
    id: 'getSharedReport',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/shared/{token}',
    summary: 'Read a shared report',
    description: 'The report behind a share link, as JSON, without a key. 404 once it is unshared or deleted.',
    tag: 'Reports',
    scopes: [],
    teamHeader: false,
    public: true,
    params: ShareParams,
    output: SharedReport,
  }),
];
