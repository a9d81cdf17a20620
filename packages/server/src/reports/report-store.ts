import { LoupeError, type Page, type ReportSummary } from '@loupe/contract';
import { type Insertable, type Selectable, sql } from 'kysely';
import { type Database, inTransaction } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { CrawlUrlTable, ReportTable } from '../database/schema.ts';

export type ReportRow = Selectable<ReportTable>;
export type PageRow = Selectable<CrawlUrlTable>;

/** The page index's sort keys and the column behind each (nulls sort as the sentinel, alike on both dialects). */
const sortColumns = {
  url: { column: 'url', nullAs: "''" },
  score: { column: 'score', nullAs: '-1' },
  status: { column: 'status_code', nullAs: '0' },
  depth: { column: 'depth', nullAs: '0' },
  errors: { column: 'error_count', nullAs: '0' },
  warnings: { column: 'warning_count', nullAs: '0' },
  notices: { column: 'notice_count', nullAs: '0' },
  responseMs: { column: 'response_ms', nullAs: '-1' },
  bytes: { column: 'bytes', nullAs: '-1' },
  inlinks: { column: 'inlinks', nullAs: '0' },
  words: { column: 'word_count', nullAs: '-1' },
} as const;
export type PageSortKey = keyof typeof sortColumns;

export interface PageListQuery {
  sort: PageSortKey;
  order: 'asc' | 'desc';
  ruleId?: string;
  statusClass?: '2xx' | '3xx' | '4xx' | '5xx' | 'failed';
  limit: number;
  cursor?: string;
}

export function toReportSummary(row: ReportRow): ReportSummary {
  return {
    id: row.id,
    crawlId: row.crawl_id,
    projectId: row.project_id,
    url: row.url,
    mode: row.mode as ReportSummary['mode'],
    completeness: row.completeness as ReportSummary['completeness'],
    createdAt: row.created_at,
    score: row.score,
    grade: row.grade as ReportSummary['grade'],
    pages: row.pages,
    errors: row.errors,
    warnings: row.warnings,
    notices: row.notices,
    shared: row.share_token !== null,
  };
}

/** Reports and the stored pages and findings behind them: the only module that queries them for reading. */
export class ReportStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Stores a freshly built report, replacing an earlier build of the same crawl. */
  async saveBuilt(row: Insertable<ReportTable>): Promise<string> {
    await inTransaction(this.#database, async ({ db }) => {
      await db.deleteFrom('reports').where('crawl_id', '=', row.crawl_id).execute();
      await db.insertInto('reports').values(row).execute();
    });
    return row.id;
  }

  find(workspaceId: string, id: string): Promise<ReportRow | undefined> {
    return this.#database.db
      .selectFrom('reports')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async get(workspaceId: string, id: string): Promise<ReportRow> {
    const row = await this.find(workspaceId, id);
    if (!row) throw new LoupeError('not_found', { message: 'No such report in this workspace.' });
    return row;
  }

  byShareToken(token: string): Promise<ReportRow | undefined> {
    return this.#database.db.selectFrom('reports').selectAll().where('share_token', '=', token).executeTakeFirst();
  }

  /** Newest first. */
  async list(workspaceId: string, filter: { projectId?: string }, page: { limit: number; cursor?: string }): Promise<Page<ReportSummary>> {
    const before = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('reports')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .$if(filter.projectId !== undefined, (q) => q.where('project_id', '=', filter.projectId as string))
      .$if(before !== undefined, (q) => q.where('id', '<', before as string))
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toReportSummary);
  }

  async setShare(id: string, token: string | null, at: string | null): Promise<void> {
    await this.#database.db.updateTable('reports').set({ share_token: token, shared_at: at }).where('id', '=', id).execute();
  }

  /** The report and everything its crawl stored for it; the crawl itself stays, without a report. */
  async delete(row: ReportRow): Promise<void> {
    await inTransaction(this.#database, async ({ db }) => {
      await db.deleteFrom('reports').where('id', '=', row.id).execute();
      await db.deleteFrom('crawl_findings').where('crawl_id', '=', row.crawl_id).execute();
      await db.deleteFrom('crawl_links').where('crawl_id', '=', row.crawl_id).execute();
      await db.deleteFrom('crawl_hreflangs').where('crawl_id', '=', row.crawl_id).execute();
      await db.deleteFrom('crawl_page_bodies').where('crawl_id', '=', row.crawl_id).execute();
      await db.deleteFrom('crawl_page_renders').where('crawl_id', '=', row.crawl_id).execute();
      await db.deleteFrom('crawl_urls').where('crawl_id', '=', row.crawl_id).execute();
      await db.updateTable('crawls').set({ report_id: null }).where('id', '=', row.crawl_id).execute();
    });
  }

  /** One page of the page index, keyset-paged on (sort value, id). */
  async pages(crawlId: string, query: PageListQuery): Promise<Page<PageRow>> {
    const { column, nullAs } = sortColumns[query.sort];
    const sortExpr = sql<string | number>`coalesce(${sql.ref(column)}, ${sql.raw(nullAs)})`;
    const after = decodePageCursor(query.cursor, query.sort);
    const forward = query.order === 'asc';
    let select = this.#database.db
      .selectFrom('crawl_urls')
      .selectAll()
      .select(sortExpr.as('sort_value'))
      .where('crawl_id', '=', crawlId)
      .where('kind', '=', 'page')
      .where('state', '=', 'done');
    if (query.ruleId !== undefined) {
      const ruleId = query.ruleId;
      select = select.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('crawl_findings as f')
            .select('f.id')
            .whereRef('f.url_id', '=', 'crawl_urls.id')
            .where('f.crawl_id', '=', crawlId)
            .where('f.rule_id', '=', ruleId),
        ),
      );
    }
    if (query.statusClass !== undefined) {
      if (query.statusClass === 'failed') select = select.where('status_code', 'is', null);
      else {
        const low = Number(query.statusClass[0]) * 100;
        select = select.where('status_code', '>=', low).where('status_code', '<', low + 100);
      }
    }
    if (after) {
      const op = forward ? '>' : '<';
      select = select.where((eb) =>
        eb.or([eb(sortExpr, op, after.value), eb.and([eb(sortExpr, '=', after.value), eb('id', op, after.id)])]),
      );
    }
    const rows = await select
      .orderBy(sortExpr, forward ? 'asc' : 'desc')
      .orderBy('id', forward ? 'asc' : 'desc')
      .limit(query.limit + 1)
      .execute();
    const more = rows.length > query.limit;
    const items = more ? rows.slice(0, query.limit) : rows;
    const last = items.at(-1);
    return {
      items,
      nextCursor: more && last ? encodePageCursor(query.sort, last.sort_value, last.id) : null,
    };
  }

  page(crawlId: string, pageId: string): Promise<PageRow | undefined> {
    return this.#database.db
      .selectFrom('crawl_urls')
      .selectAll()
      .where('crawl_id', '=', crawlId)
      .where('id', '=', pageId)
      .where('kind', '=', 'page')
      .executeTakeFirst();
  }

  findingsOf(crawlId: string, urlIds: string[]) {
    if (urlIds.length === 0) return Promise.resolve([]);
    return this.#database.db
      .selectFrom('crawl_findings')
      .select(['url_id', 'rule_id', 'severity', 'count', 'samples', 'more_instances', 'detail'])
      .where('crawl_id', '=', crawlId)
      .where('url_id', 'in', urlIds)
      .orderBy('rule_id')
      .execute();
  }

  siteFindings(crawlId: string) {
    return this.#database.db
      .selectFrom('crawl_findings')
      .select(['url_id', 'rule_id', 'severity', 'count', 'samples', 'more_instances', 'detail'])
      .where('crawl_id', '=', crawlId)
      .where('url_id', 'is', null)
      .orderBy('rule_id')
      .execute();
  }
}

function encodePageCursor(sort: PageSortKey, value: string | number, id: string): string {
  return Buffer.from(JSON.stringify([sort, value, id]), 'utf8').toString('base64url');
}

/** A cursor is only valid for the sort it was made for. */
function decodePageCursor(cursor: string | undefined, sort: PageSortKey): { value: string | number; id: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [cursorSort, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (cursorSort === sort && (typeof value === 'string' || typeof value === 'number') && typeof id === 'string') {
      return { value, id: decodeCursor(Buffer.from(id, 'utf8').toString('base64url')) as string };
    }
  } catch {
    // fall through to the validation error
  }
  throw new LoupeError('validation_failed', {
    details: { fieldErrors: { cursor: ['Not a cursor from a previous page of this sort.'] }, formErrors: [] },
  });
}
