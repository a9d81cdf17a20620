import { weightOf } from '../audit/health-score.ts';
import { ruleCatalog } from '../audit/rule-catalog.ts';
import type { Handlers } from '../http/handlers.ts';
import type { ReportService } from './report-service.ts';

type ReportHandlers = Pick<
  Handlers,
  | 'listAuditRules'
  | 'listReports'
  | 'getReport'
  | 'listReportPages'
  | 'getReportPage'
  | 'getReportPageScreenshot'
  | 'listIssueInstances'
  | 'listPageOutlinks'
  | 'listPageInlinks'
  | 'listReportLinks'
  | 'exportBrokenLinks'
  | 'shareReport'
  | 'getReportShare'
  | 'unshareReport'
  | 'exportReport'
  | 'deleteReport'
  | 'getSharedReport'
  | 'getSharedReportPageScreenshot'
>;

export function reportHandlers(reports: ReportService): ReportHandlers {
  return {
    listAuditRules: async () => ruleCatalog.map((rule) => ({ ...rule, weight: weightOf({ ruleId: rule.id, ...rule }) })),
    listReports: ({ query }, { principal }) => reports.list(principal, { projectId: query.projectId }, query),
    getReport: ({ params }, { principal }) => reports.get(principal, params.reportId),
    listReportPages: ({ params, query }, { principal }) => reports.pages(principal, params.reportId, query),
    getReportPage: ({ params }, { principal }) => reports.page(principal, params.reportId, params.pageId),
    getReportPageScreenshot: ({ params }, { principal }) => reports.screenshot(principal, params.reportId, params.pageId),
    listIssueInstances: ({ params, query }, { principal }) => reports.instances(principal, params.reportId, params.ruleId, query),
    listPageOutlinks: ({ params, query }, { principal }) => reports.outlinks(principal, params.reportId, params.pageId, query),
    listPageInlinks: ({ params, query }, { principal }) => reports.inlinks(principal, params.reportId, params.pageId, query),
    listReportLinks: ({ params, query }, { principal }) => reports.links(principal, params.reportId, query),
    exportBrokenLinks: ({ params, query }, { principal }) => reports.exportBrokenLinks(principal, params.reportId, query.format),
    shareReport: ({ params }, { principal }) => reports.share(principal, params.reportId),
    getReportShare: ({ params }, { principal }) => reports.getShare(principal, params.reportId),
    unshareReport: ({ params }, { principal }) => reports.unshare(principal, params.reportId),
    exportReport: ({ params, query }, { principal }) => reports.export(principal, params.reportId, query.format),
    deleteReport: ({ params }, { principal }) => reports.delete(principal, params.reportId),
    getSharedReport: ({ params }) => reports.shared(params.token),
    getSharedReportPageScreenshot: ({ params }) => reports.sharedScreenshot(params.token, params.pageId),
  };
}
