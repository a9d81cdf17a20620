import { type LinkFailureReason, LoupeError, type Page, type PageLink } from '@loupe/contract';
import { sql } from 'kysely';
import { REL_BITS } from '../crawl/frontier-store.ts';
import { causeOf, NOT_CHECKED } from '../crawl/link-outcome.ts';
import type { Database } from '../database/database.ts';
import { decodePositionCursor, pageFromPositions, rowsAfter } from '../database/keyset-paging.ts';

/** A crawled URL a link starts or ends at. */
interface LinkEnd {
  id: string;
  url: string;
  url_key: string;
}

interface TargetRow {
  target_id: string | null;
  target_row_url: string | null;
  status_code: number | null;
  final_url: string | null;
  fetch_error: string | null;
  state: string | null;
}

interface LinkRow extends TargetRow {
  kind: string;
  anchor: string | null;
  element: string | null;
  rel: number;
  target_url: string | null;
  occurrences: number;
  more_anchors: string | null;
}

/** What a link says of itself (`l`), whichever end the list starts from. */
const LINK = ['l.kind', 'l.anchor', 'l.element', 'l.rel', 'l.target_url', 'l.occurrences', 'l.more_anchors'] as const;

/** A link's own columns and its target's outcome (`t`, left-joined on the url_key). */
const LINK_AND_TARGET = [
  ...LINK,
  'l.target_key as key_a',
  't.id as target_id',
  't.url as target_row_url',
  't.status_code',
  't.final_url',
  't.fetch_error',
  't.state',
] as const;

/**
 * A page's outlinks and inlinks, keyset-paged on the links' primary key order: outlinks on
 * (kind, target_key), inlinks on (source_id, kind). The target's outcome comes from its own row.
 */
export class PageLinks {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** The URL of a crawl by id, whatever its kind (pages, assets and external URLs all have links). */
  async end(crawlId: string, urlId: string): Promise<LinkEnd> {
    const row = await this.#database.db
      .selectFrom('crawl_urls')
      .select(['id', 'url', 'url_key'])
      .where('crawl_id', '=', crawlId)
      .where('id', '=', urlId)
      .executeTakeFirst();
    if (!row) throw new LoupeError('not_found', { message: 'No such page in this report.' });
    return row;
  }

  async outlinks(crawlId: string, source: LinkEnd, page: { limit: number; cursor?: string }): Promise<Page<PageLink>> {
    const after = decodePositionCursor(page.cursor, 2);
    const rows = await this.#database.db
      .selectFrom('crawl_links as l')
      .leftJoin('crawl_urls as t', (join) => join.on('t.crawl_id', '=', crawlId).onRef('t.url_key', '=', 'l.target_key'))
      .select(LINK_AND_TARGET)
      .where('l.crawl_id', '=', crawlId)
      .where('l.source_id', '=', source.id)
      .$if(after !== undefined, (q) => q.where(rowsAfter(['l.kind', 'l.target_key'], after as string[])))
      .orderBy('l.kind')
      .orderBy('l.target_key')
      .limit(page.limit + 1)
      .execute();
    return pageFromPositions(
      rows,
      page.limit,
      (row) => [row.kind, row.key_a],
      (row) => toPageLink(row, source),
    );
  }

  async inlinks(crawlId: string, target: LinkEnd, page: { limit: number; cursor?: string }): Promise<Page<PageLink>> {
    const after = decodePositionCursor(page.cursor, 2);
    const rows = await this.#database.db
      .selectFrom('crawl_links as l')
      .innerJoin('crawl_urls as s', 's.id', 'l.source_id')
      .select([...LINK, 'l.source_id', 's.url as source_url'])
      .where('l.crawl_id', '=', crawlId)
      .where('l.target_key', '=', target.url_key)
      .$if(after !== undefined, (q) => q.where(rowsAfter(['l.source_id', 'l.kind'], after as string[])))
      .orderBy('l.source_id')
      .orderBy('l.kind')
      .limit(page.limit + 1)
      .execute();
    const outcome = await this.#database.db
      .selectFrom('crawl_urls')
      .select(['id as target_id', 'url as target_row_url', 'status_code', 'final_url', 'fetch_error', 'state'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    return pageFromPositions(
      rows,
      page.limit,
      (row) => [row.source_id, row.kind],
      (row) => toPageLink({ ...row, ...outcome }, { id: row.source_id, url: row.source_url }),
    );
  }

  /**
   * Every link of the crawl, grouped by target (target_key, then source and kind: the order of
   * crawl_links_target), filtered on the link's kind and its target's outcome. A filter on the
   * outcome walks the crawl's URLs and reads the links of those that match, through that index:
   * a rare outcome (broken) among 500,000 links costs a walk over 50,000 URLs, not the links.
   */
  async all(crawlId: string, query: ReportLinksQuery): Promise<Page<PageLink>> {
    const after = decodePositionCursor(query.cursor, 3);
    const onSite = query.target === undefined ? null : await this.#siteAssets(crawlId);
    const rows = await (filtersOnOutcome(query)
      ? this.#byMatchingTargets(crawlId, query, after, onSite)
      : this.#byLinks(crawlId, query, after)
    )
      .limit(query.limit + 1)
      .execute();
    return pageFromPositions(
      rows,
      query.limit,
      (row) => [row.key_a, row.source_id, row.kind],
      (row) => toPageLink(row, { id: row.source_id, url: row.source_url }),
    );
  }

  /** Links whose target the crawl may keep no row for (not followed, out of scope): the links drive, the target is left-joined. */
  #byLinks(crawlId: string, query: ReportLinksQuery, after: string[] | undefined) {
    return this.#database.db
      .selectFrom('crawl_links as l')
      .innerJoin('crawl_urls as s', 's.id', 'l.source_id')
      .leftJoin('crawl_urls as t', (join) => join.on('t.crawl_id', '=', crawlId).onRef('t.url_key', '=', 'l.target_key'))
      .select([...LINK_AND_TARGET, 'l.source_id', 's.url as source_url'])
      .where('l.crawl_id', '=', crawlId)
      .$if(query.kind !== undefined, (q) => q.where('l.kind', '=', query.kind as string))
      .$if(query.statusClass === 'not-checked', (q) =>
        q.where((eb) => eb.or([eb('t.id', 'is', null), eb('t.state', '!=', 'done'), eb('t.fetch_error', 'like', 'not-checked:%')])),
      )
      .$if(after !== undefined, (q) => q.where(rowsAfter(['l.target_key', 'l.source_id', 'l.kind'], after as string[])))
      .orderBy('l.target_key')
      .orderBy('l.source_id')
      .orderBy('l.kind');
  }

  /**
   * Links to targets whose outcome matches: the targets drive. SQLite takes a CROSS JOIN's left
   * table as the outer loop (without it, it walked every link in key order to skip a sort);
   * PostgreSQL reads it as an inner join and plans it from its statistics.
   */
  #byMatchingTargets(crawlId: string, query: ReportLinksQuery, after: string[] | undefined, onSite: string | null) {
    const { statusClass, target } = query;
    return this.#database.db
      .selectFrom('crawl_urls as t')
      .crossJoin('crawl_links as l')
      .innerJoin('crawl_urls as s', 's.id', 'l.source_id')
      .select([...LINK_AND_TARGET, 'l.source_id', 's.url as source_url'])
      .where('t.crawl_id', '=', crawlId)
      .where('l.crawl_id', '=', crawlId)
      .whereRef('l.target_key', '=', 't.url_key')
      .$if(query.kind !== undefined, (q) => q.where('l.kind', '=', query.kind as string))
      .$if(onSite !== null, (q) =>
        q.where((eb) => {
          const asset = eb('t.kind', '=', 'asset');
          const own = eb(sql<string>`substr(t.url, 1, ${(onSite as string).length})`, '=', onSite as string);
          return target === 'internal'
            ? eb.or([eb('t.kind', '=', 'page'), eb.and([asset, own])])
            : eb.or([eb('t.kind', '=', 'external'), eb.and([asset, eb.not(own)])]);
        }),
      )
      .$if(statusClass === 'not-checked', (q) =>
        q.where((eb) => eb.or([eb('t.state', '!=', 'done'), eb('t.fetch_error', 'like', 'not-checked:%')])),
      )
      .$if(statusClass !== undefined && statusClass !== 'not-checked', (q) =>
        q.where((eb) => {
          const done = eb('t.state', '=', 'done');
          const notChecked = eb('t.fetch_error', 'like', 'not-checked:%');
          if (statusClass === 'broken') {
            // A page cut short at the size cap still answered.
            const failed = eb.and([eb('t.fetch_error', 'is not', null), eb.not(notChecked), eb('t.fetch_error', '!=', 'truncated')]);
            return eb.and([done, eb.or([eb('t.status_code', '>=', 400), failed])]);
          }
          if (statusClass === 'failed') {
            return eb.and([done, eb('t.status_code', 'is', null), eb.or([eb('t.fetch_error', 'is', null), eb.not(notChecked)])]);
          }
          const low = Number((statusClass as string)[0]) * 100;
          return eb.and([done, eb('t.status_code', '>=', low), eb('t.status_code', '<', low + 100)]);
        }),
      )
      .$if(query.reason !== undefined, (q) =>
        q
          .where('t.state', '=', 'done')
          .where((eb) =>
            eb.or(
              REASON_CODES[query.reason as LinkFailureReason].map((code) => eb('t.fetch_error', code.endsWith('%') ? 'like' : '=', code)),
            ),
          ),
      )
      .$if(after !== undefined, (q) => q.where(rowsAfter(['t.url_key', 'l.source_id', 'l.kind'], after as string[])))
      .orderBy('t.url_key')
      .orderBy('l.source_id')
      .orderBy('l.kind');
  }

  /**
   * The prefix of the crawled site's URLs (`origin/`): the crawl checks every image as an asset,
   * another site's too, so an asset is the site's own only when its URL starts with it.
   */
  async #siteAssets(crawlId: string): Promise<string> {
    const crawl = await this.#database.db.selectFrom('crawls').select('url').where('id', '=', crawlId).executeTakeFirstOrThrow();
    return `${new URL(crawl.url).origin}/`;
  }
}

/**
 * Whether the query needs the target's row to match: every outcome filter does, but
 * not-checked, which also takes links to targets the crawl never queued (no row at all).
 */
function filtersOnOutcome(query: ReportLinksQuery): boolean {
  const onStatus = query.statusClass !== undefined && query.statusClass !== 'not-checked';
  return onStatus || query.reason !== undefined || query.target !== undefined;
}

/** Each reason slug's stored fetch errors (crawl/fetch-failure.ts, page-fetcher.ts, link-outcome.ts); `%` ends a prefix. */
const REASON_CODES: Record<LinkFailureReason, readonly string[]> = {
  'no-such-host': ['dns'],
  'connection-refused': ['refused'],
  'timed-out': ['timeout'],
  'tls-error': ['tls'],
  'connection-reset': ['reset'],
  'address-not-allowed': ['blocked-address'],
  'blocked-by-robots': ['blocked-by-robots'],
  // Link checks stored loops as 'redirect-loop' before they took the page fetcher's code.
  'redirect-loop': ['loop', 'redirect-loop'],
  'too-many-redirects': ['too-many-redirects'],
  'invalid-redirect': ['invalid-redirect'],
  'network-error': ['network: %'],
  'not-checked-over-the-cap': [NOT_CHECKED.overCap],
  'not-checked-time-budget': [NOT_CHECKED.timeBudget],
  'not-checked-turned-off': [NOT_CHECKED.turnedOff],
};

export interface ReportLinksQuery {
  reason?: LinkFailureReason;
  kind?: PageLink['kind'];
  target?: 'internal' | 'external';
  statusClass?: '2xx' | '3xx' | '4xx' | '5xx' | 'failed' | 'not-checked' | 'broken';
  limit: number;
  cursor?: string;
}

function toPageLink(row: LinkRow, source: { id: string; url: string }): PageLink {
  const rel = Number(row.rel);
  const nofollow = (rel & REL_BITS.nofollow) !== 0;
  return {
    sourceId: source.id,
    sourceUrl: source.url,
    targetId: row.target_id,
    targetUrl: row.target_row_url ?? row.target_url ?? '',
    kind: row.kind as PageLink['kind'],
    element: row.element as PageLink['element'],
    anchor: row.anchor || null,
    anchors: anchorsOf(row),
    occurrences: Number(row.occurrences),
    nofollow,
    partlyNofollow: (rel & REL_BITS.partlyNofollow) !== 0,
    sponsored: (rel & REL_BITS.sponsored) !== 0,
    ugc: (rel & REL_BITS.ugc) !== 0,
    status: row.status_code,
    finalUrl: row.final_url !== null && row.final_url !== row.target_row_url ? row.final_url : null,
    reason: reasonOf(row, nofollow),
  };
}

function anchorsOf(row: LinkRow): string[] {
  const first = row.anchor ? [row.anchor] : [];
  return row.more_anchors === null ? first : [...first, ...(JSON.parse(row.more_anchors) as string[])];
}

/** Why the target has no usable answer; the crawl keeps no row for targets it did not queue. */
function reasonOf(row: TargetRow, nofollow: boolean): string | null {
  if (row.target_id === null) return nofollow ? 'not checked: nofollow' : "not checked: outside the crawl's scope";
  if (row.state !== 'done') return 'not checked: the crawl stopped before it';
  return causeOf(row.fetch_error);
}
