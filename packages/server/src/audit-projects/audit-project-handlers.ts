import type { Handlers } from '../http/handlers.ts';
import type { AuditProjectService } from './audit-project-service.ts';

type AuditProjectHandlers = Pick<
  Handlers,
  | 'listAuditProjects'
  | 'createAuditProject'
  | 'getAuditProject'
  | 'updateAuditProject'
  | 'deleteAuditProject'
  | 'startProjectCrawl'
  | 'estimateProjectCrawl'
  | 'listProjectCrawls'
  | 'listProjectReports'
  | 'getProjectTrend'
>;

export function auditProjectHandlers(projects: AuditProjectService): AuditProjectHandlers {
  return {
    listAuditProjects: ({ query }, { principal }) => projects.list(principal, query),
    createAuditProject: ({ body }, { principal }) => projects.create(principal, body),
    getAuditProject: ({ params }, { principal }) => projects.get(principal, params.projectId),
    updateAuditProject: ({ params, body }, { principal }) => projects.update(principal, params.projectId, body),
    deleteAuditProject: ({ params }, { principal }) => projects.delete(principal, params.projectId),
    startProjectCrawl: ({ params, body }, { principal }) => projects.startCrawl(principal, params.projectId, body),
    estimateProjectCrawl: ({ params, body }, { principal }) => projects.estimateCrawl(principal, params.projectId, body),
    listProjectCrawls: ({ params, query }, { principal }) => projects.crawls(principal, params.projectId, query.status, query),
    listProjectReports: ({ params, query }, { principal }) => projects.reports(principal, params.projectId, query),
    getProjectTrend: ({ params, query }, { principal }) => projects.trend(principal, params.projectId, query),
  };
}
