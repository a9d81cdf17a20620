import type { Crawl, CrawlStatus } from '@loupe/contract';
import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { CrawlTable } from '../database/schema.ts';
import type { CrawlOptions } from './crawl-options.ts';
import type { SiteFacts } from './site-facts.ts';
import { crawlProgressOf, type StoredCrawlProgress } from './stored-crawl-progress.ts';

export type CrawlRow = Selectable<CrawlTable>;

export function toCrawl(row: CrawlRow): Crawl {
  return {
    id: row.id,
    status: row.status as CrawlStatus,
    url: row.url,
    mode: row.mode as Crawl['mode'],
    projectId: row.project_id,
    maxPages: row.max_pages,
    capped: row.capped === 1,
    render: (JSON.parse(row.options) as CrawlOptions).render === true,
    pagesCrawled: row.pages_crawled,
    progress: crawlProgressOf(row),
    creditsReserved: row.credits_reserved,
    creditsCharged: row.credits_charged,
    reportId: row.report_id,
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Crawls (`crawls`): the only module that queries them; their URLs are the frontier store's. */
export class CrawlStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async insert(row: Insertable<CrawlTable>): Promise<void> {
    await this.#database.db.insertInto('crawls').values(row).execute();
  }

  find(workspaceId: string, id: string): Promise<CrawlRow | undefined> {
    return this.#database.db
      .selectFrom('crawls')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  byId(id: string): Promise<CrawlRow | undefined> {
    return this.#database.db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(workspaceId: string, statuses: CrawlStatus[], page: { limit: number; cursor?: string }) {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('crawls')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('status', 'in', statuses)
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toCrawl);
  }

  /** Moves a crawl from one of `from` to `to`; false when it was in another state (someone else moved it). */
  async transition(id: string, from: CrawlStatus[], to: CrawlStatus, changes: Partial<Insertable<CrawlTable>> = {}): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('crawls')
      .set({ ...changes, status: to })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async requestCancel(id: string): Promise<void> {
    await this.#database.db.updateTable('crawls').set({ cancel_requested: 1 }).where('id', '=', id).execute();
  }

  async cancelRequested(id: string): Promise<boolean> {
    const row = await this.#database.db.selectFrom('crawls').select('cancel_requested').where('id', '=', id).executeTakeFirst();
    return row?.cancel_requested === 1;
  }

  /**
   * A running crawl's progress, with its page count and the URL fetched last (kept for the
   * clients that read only those). An ended crawl is left alone: its final progress is
   * written with its end (see transition), and a late write must not undo it.
   */
  async setProgress(id: string, progress: StoredCrawlProgress, lastUrl: string): Promise<void> {
    await this.#database.db
      .updateTable('crawls')
      .set({ progress: JSON.stringify(progress), pages_crawled: progress.current.pages.done, ...(lastUrl !== '' && { last_url: lastUrl }) })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  async setSiteFacts(crawlId: string, facts: SiteFacts): Promise<void> {
    await this.#database.db
      .updateTable('crawls')
      .set({ site_facts: JSON.stringify(facts) })
      .where('id', '=', crawlId)
      .execute();
  }

  /** What the crawl's start learnt about the site; null before it was written. */
  async siteFacts(crawlId: string): Promise<SiteFacts | null> {
    const row = await this.#database.db.selectFrom('crawls').select('site_facts').where('id', '=', crawlId).executeTakeFirst();
    return row?.site_facts ? (JSON.parse(row.site_facts) as SiteFacts) : null;
  }
}
