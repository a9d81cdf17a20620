import { zstdDecompressSync } from 'node:zlib';
import type { PageLab } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import type { PageSummary } from './page-summary.ts';

/** A crawled page as stored: what rule packs, previews and search read once the crawl is over. */
export interface StoredPage {
  id: string;
  url: string;
  finalUrl: string | null;
  /** Null when the fetch failed. */
  status: number | null;
  contentType: string | null;
  /** The response headers the audit keeps (lower-case names). */
  headers: Record<string, string>;
  depth: number;
  /** Set once the report is built. */
  inlinks: number | null;
  bytes: number | null;
  responseMs: number | null;
  ttfbMs: number | null;
  redirectHops: number;
  indexable: boolean;
  summary: PageSummary | null;
  /** The markup, for HTML pages; only when asked for (decompressing it is most of the cost). */
  html: string | null;
  /** The visible words as written, for HTML pages (as rendered, in a rendering crawl). */
  text: string | null;
  /** The rendered DOM, in a rendering crawl; only when `html` is asked for, like the markup. */
  renderedHtml: string | null;
  /** The browser's lab reading, in a rendering crawl; null otherwise. */
  lab: PageLab | null;
}

export interface StoredPageQuery {
  /** Pages after this id (keyset paging in id order). */
  after?: string;
  limit: number;
  /** Also decompress the markup (rules with selectors need it; search does not). */
  html: boolean;
  /**
   * With `html`, also the rendered DOM of a rendering crawl (the default): a pack with no
   * `dom: "rendered"` condition leaves it out, and so spares its decompression and copying.
   */
  renderedHtml?: boolean;
}

const decode = (data: Uint8Array | null): string | null => (data === null ? null : zstdDecompressSync(data).toString('utf8'));

/** Reads a crawl's fetched pages with their kept markup and text, in batches. */
export class StoredPageStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async pages(crawlId: string, query: StoredPageQuery): Promise<StoredPage[]> {
    const rows = await this.#database.db
      .selectFrom('crawl_urls as u')
      .leftJoin('crawl_page_bodies as b', (join) => join.onRef('b.crawl_id', '=', 'u.crawl_id').onRef('b.url_id', '=', 'u.id'))
      .leftJoin('crawl_page_renders as r', (join) => join.onRef('r.crawl_id', '=', 'u.crawl_id').onRef('r.url_id', '=', 'u.id'))
      .select([
        'u.id',
        'u.url',
        'u.final_url',
        'u.status_code',
        'u.content_type',
        'u.headers',
        'u.depth',
        'u.inlinks',
        'u.bytes',
        'u.response_ms',
        'u.ttfb_ms',
        'u.redirects',
        'u.indexable',
        'u.summary',
        'b.text',
        'r.lab',
      ])
      .$if(query.html, (q) => q.select('b.html'))
      .$if(query.html && query.renderedHtml !== false, (q) => q.select('r.html as rendered_html'))
      .where('u.crawl_id', '=', crawlId)
      .where('u.kind', '=', 'page')
      .where('u.state', '=', 'done')
      .$if(query.after !== undefined, (q) => q.where('u.id', '>', query.after as string))
      .orderBy('u.id')
      .limit(query.limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      finalUrl: row.final_url,
      status: row.status_code,
      contentType: row.content_type,
      headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
      depth: row.depth,
      inlinks: row.inlinks,
      bytes: row.bytes,
      responseMs: row.response_ms,
      ttfbMs: row.ttfb_ms,
      redirectHops: row.redirects ? (JSON.parse(row.redirects) as unknown[]).length : 0,
      indexable: row.indexable === 1,
      summary: row.summary ? (JSON.parse(row.summary) as PageSummary) : null,
      html: 'html' in row ? decode(row.html as Uint8Array | null) : null,
      text: decode(row.text),
      renderedHtml: 'rendered_html' in row ? decode(row.rendered_html as Uint8Array | null) : null,
      lab: row.lab ? (JSON.parse(row.lab) as PageLab) : null,
    }));
  }

  /** Every page of the crawl, batch by batch. */
  async *each(crawlId: string, options: Omit<StoredPageQuery, 'after' | 'limit'> & { batch?: number }): AsyncGenerator<StoredPage[]> {
    const limit = options.batch ?? 200;
    let after: string | undefined;
    for (;;) {
      const batch = await this.pages(crawlId, { after, limit, html: options.html, renderedHtml: options.renderedHtml });
      if (batch.length === 0) return;
      yield batch;
      if (batch.length < limit) return;
      after = batch.at(-1)?.id;
    }
  }
}
