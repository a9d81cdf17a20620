import { AuditProjectStore } from '../audit-projects/audit-project-store.ts';
import type { CrawlProjects } from '../crawl/crawl-projects.ts';
import type { Database } from '../database/database.ts';
import { rulePackSnapshots } from './rule-pack-snapshots.ts';

/**
 * The audit projects the crawl service starts crawls for, each with its packs. Here because
 * it joins projects and rule packs: rule-packs imports projects, never the reverse.
 */
export function crawlProjects(database: Database): CrawlProjects {
  return {
    async find(workspaceId, projectId) {
      const project = await new AuditProjectStore(database).find(workspaceId, projectId);
      return project && { id: project.id, rulePacks: () => rulePackSnapshots(database, project) };
    },
    async busy(transaction, projectId) {
      const projects = new AuditProjectStore(transaction);
      await projects.lockForCrawlStart(projectId);
      return projects.hasActiveCrawl(projectId);
    },
  };
}
