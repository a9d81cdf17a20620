import type { AuditProject, CrawlDefaults, CrawlStatus, Page } from '@loupe/contract';
import type { Insertable, Selectable } from 'kysely';
import { toCrawl } from '../crawl/crawl-store.ts';
import { compiledOnce } from '../database/compiled-query.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { AuditProjectTable } from '../database/schema.ts';

export type AuditProjectRow = Selectable<AuditProjectTable>;
type LatestReportRow = {
  report_id: string | null;
  report_created_at: string | null;
  report_score: number | null;
  report_grade: string | null;
};

function toAuditProject(row: AuditProjectRow & LatestReportRow): AuditProject {
  return {
    id: row.id,
    name: row.name,
    siteUrl: row.site_url,
    crawlDefaults: JSON.parse(row.crawl_defaults) as CrawlDefaults,
    rulePackIds: JSON.parse(row.rule_pack_ids) as string[],
    latestReport:
      row.report_id === null
        ? null
        : {
            id: row.report_id,
            createdAt: row.report_created_at as string,
            score: row.report_score,
            grade: row.report_grade as NonNullable<AuditProject['latestReport']>['grade'],
          },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Audit projects, and the crawls and reports filed under them: the only module that queries them. */
export class AuditProjectStore {
  readonly #database: Database;
  readonly #find;

  constructor(database: Database) {
    this.#database = database;
    // Every project-scoped request checks its project with this, so it is compiled once.
    this.#find = compiledOnce(() =>
      database.db.selectFrom('audit_projects').selectAll().where('workspace_id', '=', '').where('id', '=', '').compile(),
    );
  }

  /** Projects with their newest report (reports ids are time-ordered, so the greatest is the newest). */
  #withLatestReport() {
    const db = this.#database.db;
    return db
      .selectFrom('audit_projects as p')
      .leftJoin('reports as r', (join) =>
        join.onRef('r.project_id', '=', 'p.id').on('r.id', '=', (eb) =>
          eb
            .selectFrom('reports as newest')
            .select((e) => e.fn.max('newest.id').as('id'))
            .whereRef('newest.project_id', '=', 'p.id'),
        ),
      )
      .selectAll('p')
      .select(['r.id as report_id', 'r.created_at as report_created_at', 'r.score as report_score', 'r.grade as report_grade']);
  }

  async insert(row: Insertable<AuditProjectTable>): Promise<void> {
    await this.#database.db.insertInto('audit_projects').values(row).execute();
  }

  async find(workspaceId: string, id: string): Promise<AuditProjectRow | undefined> {
    const [row] = (await this.#database.db.executeQuery(this.#find(workspaceId, id))).rows;
    return row;
  }

  async get(workspaceId: string, id: string): Promise<AuditProject | undefined> {
    const row = await this.#withLatestReport().where('p.workspace_id', '=', workspaceId).where('p.id', '=', id).executeTakeFirst();
    return row && toAuditProject(row);
  }

  /** Oldest first. */
  async list(workspaceId: string, page: { limit: number; cursor?: string }): Promise<Page<AuditProject>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#withLatestReport()
      .where('p.workspace_id', '=', workspaceId)
      .$if(after !== undefined, (q) => q.where('p.id', '>', after as string))
      .orderBy('p.id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toAuditProject);
  }

  async update(workspaceId: string, id: string, changes: Partial<Insertable<AuditProjectTable>>): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('audit_projects')
      .set(changes)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The project goes (its schedules, alerts and index with it, by cascade); its crawls and reports stay, unfiled. */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    return inTransaction(this.#database, async ({ db }) => {
      await db
        .updateTable('reports')
        .set({ project_id: null })
        .where('workspace_id', '=', workspaceId)
        .where('project_id', '=', id)
        .execute();
      await db
        .updateTable('crawls')
        .set({ project_id: null })
        .where('workspace_id', '=', workspaceId)
        .where('project_id', '=', id)
        .execute();
      const result = await db.deleteFrom('audit_projects').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Takes a deleted rule pack off every project of the workspace that had it attached. */
  async detachRulePack(workspaceId: string, packId: string): Promise<void> {
    const rows = await this.#database.db
      .selectFrom('audit_projects')
      .select(['id', 'rule_pack_ids'])
      .where('workspace_id', '=', workspaceId)
      .where('rule_pack_ids', 'like', `%"${packId}"%`)
      .execute();
    for (const row of rows) {
      const ids = (JSON.parse(row.rule_pack_ids) as string[]).filter((id) => id !== packId);
      await this.#database.db
        .updateTable('audit_projects')
        .set({ rule_pack_ids: JSON.stringify(ids) })
        .where('id', '=', row.id)
        .execute();
    }
  }

  /** Newest first. */
  async crawls(projectId: string, status: CrawlStatus | undefined, page: { limit: number; cursor?: string }) {
    const before = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('crawls')
      .selectAll()
      .where('project_id', '=', projectId)
      .$if(status !== undefined, (q) => q.where('status', '=', status as CrawlStatus))
      .$if(before !== undefined, (q) => q.where('id', '<', before as string))
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toCrawl);
  }

  /** Whether a crawl of the project is queued or running (a schedule then skips its run). */
  /**
   * Holds the project's row until the transaction ends (a write of a column to itself: a row
   * lock on PostgreSQL, the write lock on SQLite), so that checking for an active crawl and
   * starting one cannot interleave with another process doing the same.
   */
  async lockForCrawlStart(projectId: string): Promise<void> {
    await this.#database.db
      .updateTable('audit_projects')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', projectId)
      .execute();
  }

  async hasActiveCrawl(projectId: string): Promise<boolean> {
    const row = await this.#database.db
      .selectFrom('crawls')
      .select('id')
      .where('project_id', '=', projectId)
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The newest `points` reports made since `since`, returned oldest first. */
  async trend(projectId: string, since: string | undefined, points: number) {
    const rows = await this.#database.db
      .selectFrom('reports')
      // The body for its lab p75s: a hundred reports' bodies are a few MB at most.
      .select(['id', 'crawl_id', 'created_at', 'completeness', 'score', 'grade', 'pages', 'errors', 'warnings', 'notices', 'body'])
      .where('project_id', '=', projectId)
      .$if(since !== undefined, (q) => q.where('created_at', '>=', since as string))
      .orderBy('id', 'desc')
      .limit(points)
      .execute();
    return rows.reverse();
  }
}
