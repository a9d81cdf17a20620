import type { Database } from '../database/database.ts';
import type { RulePackSnapshot } from './crawl-options.ts';

/** An audit project a crawl is started for. */
export interface CrawlProject {
  id: string;
  /** The project's rule packs as they are now, for the crawl's report to run. */
  rulePacks(): Promise<RulePackSnapshot[]>;
}

/**
 * The audit projects as starting a crawl needs them: supplied by the composition (from
 * projects and rule packs), so crawl/ imports neither.
 */
export interface CrawlProjects {
  /** Undefined when the workspace has no such project. */
  find(workspaceId: string, projectId: string): Promise<CrawlProject | undefined>;
  /**
   * In the starting transaction: holds off other starts of the project until it ends, and
   * answers whether a crawl of it is already queued or running.
   */
  busy(transaction: Database, projectId: string): Promise<boolean>;
}
