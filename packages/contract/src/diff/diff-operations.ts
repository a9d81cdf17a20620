import { defineOperation } from '../operation.ts';
import { DiffQuery, ReportDiff } from './report-diff.ts';

export const diffOperations = [
  defineOperation({
    id: 'diffReports',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/diff',
    summary: 'Compare two reports',
    description:
      'What changed between two reports of the same site: the health score and findings by severity before and after, pages added and removed, ' +
      'new URLs that are broken and pages gone (now 404 or another error, blocked by robots.txt, without an answer, or no longer crawled), each with its cause, ' +
      'new and resolved issues (an issue is one rule on one URL; site-level findings count on the URL they name, such as /robots.txt; ' +
      'resolved only where the page is still there, the findings of gone pages are listed apart), ' +
      'and pages whose HTTP status or title changed (a status change names its cause, such as blocked by robots.txt or no such host; ' +
      'titles compared as the duplicate-title check does: case and spacing aside; only pages that were HTML both times). ' +
      'Pages are matched by normalized URL when both reports start on the same origin, otherwise by path and query (so an http → https or www move compares page by page). ' +
      'The same site means the same host name once a leading www. is dropped; for two different sites pass allowCrossSite=true, or the answer is 400 reports_not_comparable. ' +
      'Every list is sorted and cut at `limit`, with its full total. Free. Next: listReportPages on either report for the pages behind a change.',
    tag: 'Reports',
    scopes: ['reports:read'],
    query: DiffQuery,
    output: ReportDiff,
    errors: ['reports_not_comparable'],
  }),
];
