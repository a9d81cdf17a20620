import { MAX_NEW_ERROR_EXAMPLES } from '@loupe/contract';
import type { Database } from '../database/database.ts';

/** A crawl filed under a project, with the project, as its end is judged. */
export interface ProjectCrawl {
  id: string;
  workspace_id: string;
  project_id: string;
  status: string;
  url: string;
  error: string | null;
  finished_at: string | null;
  project_name: string;
  site_url: string;
}

export interface ReportFacts {
  id: string;
  crawl_id: string;
  score: number | null;
  grade: string | null;
  completeness: string;
  pages: number;
  errors: number;
  warnings: number;
  notices: number;
  created_at: string;
}

export interface NewErrors {
  count: number;
  examples: { ruleId: string; url: string | null }[];
}

const reportColumns = ['id', 'crawl_id', 'score', 'grade', 'completeness', 'pages', 'errors', 'warnings', 'notices', 'created_at'] as const;

/** What the alert conditions are judged on: a crawl, its report, the project's report before it, their findings. */
export class AlertEvidenceStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** The crawl with its project; undefined for an unknown crawl or one not filed under a project. */
  projectCrawl(crawlId: string): Promise<ProjectCrawl | undefined> {
    return this.#database.db
      .selectFrom('crawls as c')
      .innerJoin('audit_projects as p', 'p.id', 'c.project_id')
      .select([
        'c.id',
        'c.workspace_id',
        'p.id as project_id',
        'c.status',
        'c.url',
        'c.error',
        'c.finished_at',
        'p.name as project_name',
        'p.site_url',
      ])
      .where('c.id', '=', crawlId)
      .executeTakeFirst();
  }

  /** The project itself, for a test alert. */
  project(projectId: string) {
    return this.#database.db.selectFrom('audit_projects').select(['id', 'name', 'site_url']).where('id', '=', projectId).executeTakeFirst();
  }

  reportOfCrawl(crawlId: string): Promise<ReportFacts | undefined> {
    return this.#database.db.selectFrom('reports').select(reportColumns).where('crawl_id', '=', crawlId).executeTakeFirst();
  }

  /** The project's newest report made before `reportId` (ids are time-ordered); with `scored`, the newest with a score. */
  previousReport(projectId: string, reportId: string, options: { scored: boolean }): Promise<ReportFacts | undefined> {
    return this.#database.db
      .selectFrom('reports')
      .select(reportColumns)
      .where('project_id', '=', projectId)
      .where('id', '<', reportId)
      .$if(options.scored, (q) => q.where('score', 'is not', null))
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Error findings of `crawlId`, keyed by rule and URL, that `previousCrawlId` did not have.
   * URLs are compared as text since each crawl has its own URL rows; a site-level finding has
   * no URL, and set difference treats two NULLs as the same key on both databases.
   */
  async newErrors(crawlId: string, previousCrawlId: string): Promise<NewErrors> {
    const db = this.#database.db;
    const errorKeys = (id: string) =>
      db
        .selectFrom('crawl_findings as f')
        .leftJoin('crawl_urls as u', 'u.id', 'f.url_id')
        .select(['f.rule_id as rule_id', 'u.url as url'])
        .where('f.crawl_id', '=', id)
        .where('f.severity', '=', 'error');
    const fresh = () => errorKeys(crawlId).except(errorKeys(previousCrawlId)).as('fresh');
    const counted = await db
      .selectFrom(fresh())
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    const count = Number(counted.count);
    if (count === 0) return { count, examples: [] };
    const examples = await db
      .selectFrom(fresh())
      .select(['rule_id', 'url'])
      .orderBy('rule_id')
      .orderBy('url')
      .limit(MAX_NEW_ERROR_EXAMPLES)
      .execute();
    return { count, examples: examples.map((row) => ({ ruleId: row.rule_id, url: row.url })) };
  }
}
