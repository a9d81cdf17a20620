import { createHash } from 'node:crypto';
import { zstdCompressSync } from 'node:zlib';
import type { PageLab } from '@loupe/contract';
import type { Insertable, Selectable } from 'kysely';
import { insertRows } from '../database/bulk-insert.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { CrawlFindingTable, CrawlUrlTable } from '../database/schema.ts';
import { newId } from '../ids.ts';
import { brokenChains } from './redirect-chains.ts';

export type CrawlUrlRow = Selectable<CrawlUrlTable>;

/**
 * zstd at its default level, told the input's size: it then sizes its window to the page
 * instead of the level's default, which halves the time on real pages for the same bytes.
 */
function compressed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return zstdCompressSync(bytes, { pledgedSrcSize: bytes.length });
}

/** A short, fixed-length unique key for a URL of any length. */
export function urlKey(url: string): string {
  return createHash('sha256').update(url).digest('base64url');
}

/** A link from a crawled page to another URL of the crawl, by the target's url_key. */
export interface PageLink {
  targetKey: string;
  /** resource: a script or stylesheet the page loads. */
  kind: 'link' | 'image' | 'canonical' | 'hreflang' | 'resource';
  /** The first anchor text or image alt the page gives the target, at most ANCHOR_CHARS code points; null when there is none. */
  anchor: string | null;
  /** The other distinct anchors, in page order, at most MORE_ANCHORS. */
  moreAnchors: string[];
  /** How many times the page names the target as this kind. */
  occurrences: number;
  element: 'a' | 'img' | 'link' | 'script';
  /** REL_BITS: a flag is set when every occurrence has it; partlyNofollow when some, not all, are nofollow. */
  rel: number;
  /** Set when the page did not queue the target (not followed, out of scope): the crawl may keep no row for it. */
  targetUrl: string | null;
}

/** The rel tokens kept with a link, as bits of `crawl_links.rel`, and whether its occurrences disagree on nofollow. */
export const REL_BITS = { nofollow: 1, sponsored: 2, ugc: 4, partlyNofollow: 8 } as const;

/** Code points of anchor text (or alt) kept per link. */
export const ANCHOR_CHARS = 200;

/** Distinct anchors kept per link beside the first: a menu, a body and a footer fit; a tag cloud does not flood the row. */
export const MORE_ANCHORS = 9;

/** One hreflang annotation of a crawled page: it calls the URL with `targetKey` the `code` version (itself included). */
export interface HreflangAnnotation {
  targetKey: string;
  /** Trimmed and lower-cased. */
  code: string;
}

/** Everything learnt from fetching one URL, written together. */
export interface RecordedPage {
  result: Partial<Insertable<CrawlUrlTable>>;
  findings: Omit<Insertable<CrawlFindingTable>, 'id' | 'crawl_id' | 'url_id' | 'stage'>[];
  links: PageLink[];
  hreflangs: HreflangAnnotation[];
  discovered: DiscoveredUrl[];
  /** An HTML page's markup and visible text, kept (compressed) for rule packs and search. */
  body: { html: string; text: string } | null;
  /** What the browser made of the page, in a rendering crawl. */
  render?: { html: string | null; lab: PageLab; screenshot: Buffer | null };
}

export interface DiscoveredUrl {
  url: string;
  depth: number;
  kind: 'page' | 'external' | 'asset';
  source: string;
}

/** A crawl's frontier (`crawl_urls`) and what its fetched pages link to: the only module that queries them. */
export class FrontierStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Adds URLs not seen before in this crawl; the unique key makes rediscovery a no-op. */
  async discover(crawlId: string, urls: DiscoveredUrl[]): Promise<void> {
    if (urls.length === 0) return;
    // The first mention wins: the start URL keeps depth 0 even when the sitemap lists it too.
    const byKey = new Map<string, DiscoveredUrl>();
    for (const u of urls) {
      const key = urlKey(u.url);
      if (!byKey.has(key)) byKey.set(key, u);
    }
    // In key order: two transactions inserting overlapping keys then lock them in the same
    // order, so concurrent pages cannot deadlock each other on the unique index (PostgreSQL).
    const unique = [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (let start = 0; start < unique.length; start += 500) await this.#discoverChunk(crawlId, unique.slice(start, start + 500));
  }

  async #discoverChunk(crawlId: string, unique: [string, DiscoveredUrl][]): Promise<void> {
    await insertRows(
      this.#database,
      'crawl_urls',
      ['id', 'crawl_id', 'url', 'url_key', 'depth', 'state', 'kind', 'source'],
      unique.map(([key, u]) => [newId(), crawlId, u.url, key, u.depth, 'queued', u.kind, u.source]),
      ['crawl_id', 'url_key'],
    );
  }

  /** The next queued URLs of a kind, shallowest first, marked as being fetched. */
  async claim(crawlId: string, kind: DiscoveredUrl['kind'], limit: number): Promise<CrawlUrlRow[]> {
    const rows = await this.#database.db
      .selectFrom('crawl_urls')
      .selectAll()
      .where('crawl_id', '=', crawlId)
      .where('state', '=', 'queued')
      .where('kind', '=', kind)
      .orderBy('depth')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (rows.length > 0) {
      await this.#database.db
        .updateTable('crawl_urls')
        .set({ state: 'fetching' })
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
    }
    return rows;
  }

  /** Marks many URLs done with the same result at once (a host's links settled together). */
  async completeMany(ids: readonly string[], result: Partial<Insertable<CrawlUrlTable>>): Promise<void> {
    for (let start = 0; start < ids.length; start += 500) {
      await this.#database.db
        .updateTable('crawl_urls')
        .set({ ...result, state: 'done' })
        .where('id', 'in', ids.slice(start, start + 500))
        .execute();
    }
  }

  /** Marks every URL of these kinds still queued or in flight done with `result`; answers how many. */
  async settleUnfinished(
    crawlId: string,
    kinds: readonly DiscoveredUrl['kind'][],
    result: Partial<Insertable<CrawlUrlTable>>,
  ): Promise<number> {
    const answer = await this.#database.db
      .updateTable('crawl_urls')
      .set({ ...result, state: 'done' })
      .where('crawl_id', '=', crawlId)
      .where('state', 'in', ['queued', 'fetching'])
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    return Number(answer.numUpdatedRows);
  }

  /** URLs waiting to be fetched or checked, by kind. */
  async queuedByKind(crawlId: string): Promise<Record<DiscoveredUrl['kind'], number>> {
    const rows = await this.#database.db
      .selectFrom('crawl_urls')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('crawl_id', '=', crawlId)
      .where('state', '=', 'queued')
      .groupBy('kind')
      .execute();
    const counts = { page: 0, asset: 0, external: 0 };
    for (const row of rows) counts[row.kind as DiscoveredUrl['kind']] = Number(row.n);
    return counts;
  }

  async requeue(id: string): Promise<void> {
    await this.#database.db.updateTable('crawl_urls').set({ state: 'queued' }).where('id', '=', id).execute();
  }

  /** After a crash, URLs caught mid-fetch go back to the queue. */
  async requeueInFlight(crawlId: string): Promise<void> {
    await this.#database.db
      .updateTable('crawl_urls')
      .set({ state: 'queued' })
      .where('crawl_id', '=', crawlId)
      .where('state', '=', 'fetching')
      .execute();
  }

  async complete(id: string, result: Partial<Insertable<CrawlUrlTable>>): Promise<void> {
    await this.#database.db
      .updateTable('crawl_urls')
      .set({ ...result, state: 'done' })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Writes fetched URLs' findings, outgoing links and discoveries, then marks them done, in
   * one transaction: pages recorded together share one commit (which PostgreSQL must flush).
   * The order keeps concurrent writers from deadlocking: new URLs are inserted in key order
   * (see discover), and the pages' own rows are locked only by the last statements.
   */
  async recordPages(crawlId: string, pages: readonly { id: string; page: RecordedPage }[]): Promise<void> {
    if (pages.length === 0) return;
    await inTransaction(this.#database, async (transaction) => {
      const db = transaction.db;
      const ids = pages.map(({ id }) => id);
      await db.deleteFrom('crawl_findings').where('crawl_id', '=', crawlId).where('url_id', 'in', ids).execute();
      await db.deleteFrom('crawl_links').where('crawl_id', '=', crawlId).where('source_id', 'in', ids).execute();
      await db.deleteFrom('crawl_hreflangs').where('crawl_id', '=', crawlId).where('source_id', 'in', ids).execute();
      await db.deleteFrom('crawl_page_bodies').where('crawl_id', '=', crawlId).where('url_id', 'in', ids).execute();
      await db.deleteFrom('crawl_page_renders').where('crawl_id', '=', crawlId).where('url_id', 'in', ids).execute();
      const findings = pages.flatMap(({ id, page }) =>
        page.findings.map((f) => [
          newId(),
          crawlId,
          id,
          'page',
          f.rule_id,
          f.severity,
          f.count,
          f.samples,
          f.more_instances ?? null,
          f.detail ?? null,
          f.share ?? null,
        ]),
      );
      const links = pages.flatMap(({ id, page }) =>
        [...new Map(page.links.map((link) => [`${link.kind} ${link.targetKey}`, link])).values()].map((link) => [
          crawlId,
          id,
          link.targetKey,
          link.kind,
          link.anchor,
          link.element,
          link.rel,
          link.targetUrl,
          link.occurrences,
          link.moreAnchors.length === 0 ? null : JSON.stringify(link.moreAnchors),
        ]),
      );
      const hreflangs = pages.flatMap(({ id, page }) => page.hreflangs.map((h) => [crawlId, id, h.targetKey, h.code]));
      await insertRows(
        transaction,
        'crawl_findings',
        ['id', 'crawl_id', 'url_id', 'stage', 'rule_id', 'severity', 'count', 'samples', 'more_instances', 'detail', 'share'],
        findings,
      );
      await insertRows(
        transaction,
        'crawl_links',
        ['crawl_id', 'source_id', 'target_key', 'kind', 'anchor', 'element', 'rel', 'target_url', 'occurrences', 'more_anchors'],
        links,
      );
      await insertRows(transaction, 'crawl_hreflangs', ['crawl_id', 'source_id', 'target_key', 'code'], hreflangs);
      await new FrontierStore(transaction).discover(
        crawlId,
        pages.flatMap(({ page }) => page.discovered),
      );
      const bodies = pages.flatMap(({ id, page }) =>
        page.body ? [{ crawl_id: crawlId, url_id: id, html: compressed(page.body.html), text: compressed(page.body.text) }] : [],
      );
      for (let start = 0; start < bodies.length; start += 100)
        await db
          .insertInto('crawl_page_bodies')
          .values(bodies.slice(start, start + 100))
          .execute();
      const renders = pages.flatMap(({ id, page }) =>
        page.render
          ? [
              {
                crawl_id: crawlId,
                url_id: id,
                html: page.render.html === null ? null : compressed(page.render.html),
                lab: JSON.stringify(page.render.lab),
                screenshot: page.render.screenshot,
              },
            ]
          : [],
      );
      // A screenshot is up to a few hundred kB: a handful per statement keeps each one small.
      for (let start = 0; start < renders.length; start += 10)
        await db
          .insertInto('crawl_page_renders')
          .values(renders.slice(start, start + 10))
          .execute();
      for (const { id, page } of pages)
        await db
          .updateTable('crawl_urls')
          .set({ ...page.result, state: 'done' })
          .where('id', '=', id)
          .execute();
    });
  }

  /**
   * Marks the internal redirects whose chain loops or runs past `maxRedirects` hops with the
   * page fetcher's error ('loop', 'too-many-redirects'), beside their status: a link to one
   * then reads as what it is. Idempotent: rows marked already are left out.
   */
  async markBrokenRedirectChains(crawlId: string, maxRedirects: number): Promise<number> {
    const rows = await this.#database.db
      .selectFrom('crawl_urls')
      .select(['url_key', 'final_url'])
      .where('crawl_id', '=', crawlId)
      .where('kind', '=', 'page')
      .where('state', '=', 'done')
      .where('status_code', '>=', 300)
      .where('status_code', '<', 400)
      .where('fetch_error', 'is', null)
      .where('final_url', 'is not', null)
      .execute();
    const failures = brokenChains(
      rows.map((row) => ({ key: row.url_key, nextKey: urlKey(row.final_url as string) })),
      maxRedirects,
    );
    for (const error of ['loop', 'too-many-redirects'] as const) {
      const keys = [...failures].filter(([, failure]) => failure === error).map(([key]) => key);
      for (let start = 0; start < keys.length; start += 500) {
        await this.#database.db
          .updateTable('crawl_urls')
          .set({ fetch_error: error })
          .where('crawl_id', '=', crawlId)
          .where('url_key', 'in', keys.slice(start, start + 500))
          .execute();
      }
    }
    return failures.size;
  }

  /** URLs of the crawl's 2xx HTML pages, shallowest first (a sample of the site's pages). */
  async htmlPageUrls(crawlId: string, limit: number): Promise<string[]> {
    const rows = await this.#database.db
      .selectFrom('crawl_urls')
      .select('url')
      .where('crawl_id', '=', crawlId)
      .where('kind', '=', 'page')
      .where('state', '=', 'done')
      .where('status_code', '>=', 200)
      .where('status_code', '<', 300)
      .where('summary', 'is not', null)
      .orderBy('depth')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.url);
  }

  async countDone(crawlId: string, kind: DiscoveredUrl['kind']): Promise<number> {
    const row = await this.#database.db
      .selectFrom('crawl_urls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('crawl_id', '=', crawlId)
      .where('kind', '=', kind)
      .where('state', '=', 'done')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Pages the browser loaded (a rendering crawl's): what is charged RENDERED_PAGE_CREDITS each. */
  async countRendered(crawlId: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('crawl_page_renders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('crawl_id', '=', crawlId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async hasUrls(crawlId: string): Promise<boolean> {
    const row = await this.#database.db.selectFrom('crawl_urls').select('id').where('crawl_id', '=', crawlId).limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
