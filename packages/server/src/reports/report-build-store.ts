import type { PageLab } from '@loupe/contract';
import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import { MAX_INSTANCES } from '../audit/finding-instances.ts';
import type { SimhashedPage } from '../audit/site-rules/near-duplicates.ts';
import { NOT_CHECKED } from '../crawl/link-outcome.ts';
import type { Database } from '../database/database.ts';
import type { CrawlFindingTable, Schema } from '../database/schema.ts';
import { newId } from '../ids.ts';

/** A crawled URL of kind page, as the report build reads it. */
export interface BuildPageRow {
  id: string;
  url: string;
  url_key: string;
  source: string;
  depth: number;
  status_code: number | null;
  fetch_error: string | null;
  final_url: string | null;
  summary: string | null;
  title_hash: string | null;
  description_hash: string | null;
  text_hash: string | null;
  lang: string | null;
  indexable: number | null;
}

/** What the build writes back on a page: its score and counts, and its lab metrics for the page index. */
export interface PageResult {
  id: string;
  score: number | null;
  inlinks: number;
  errors: number;
  warnings: number;
  notices: number;
  lcpMs: number | null;
  cls: number | null;
  tbtMs: number | null;
}

export interface StoredFinding {
  url_id: string | null;
  rule_id: string;
  severity: string;
  count: number;
  samples: string;
  detail: string | null;
}

/** A link whose target may be a problem: not a plain 200, or a canonical/hreflang/heavy image. */
export interface SuspectLinkRow {
  source_id: string;
  /** Only `done` targets were fetched or checked; the others (past maxPages) say nothing. */
  state: string;
  kind: string;
  target_id: string;
  url: string;
  url_key: string;
  target_kind: string;
  status_code: number | null;
  fetch_error: string | null;
  final_url: string | null;
  bytes: number | null;
  indexable: number | null;
}

export interface RedirectRow {
  url: string;
  url_key: string;
  status_code: number | null;
  final_url: string | null;
}

export interface HreflangReferenceRow {
  target_key: string;
  code: string;
  source_id: string;
  source_url: string;
}

export interface TerminalRow {
  url: string;
  url_key: string;
  status_code: number | null;
  fetch_error: string | null;
  indexable: number | null;
}

/** An image is worth a look above this size (`images/oversized-file`). */
const HEAVY_IMAGE_BYTES = 200 * 1024;

/** The queries the report build makes over a crawl's tables, each bounded by a batch of pages. */
export class ReportBuildStore {
  readonly #database: Database;
  readonly #crawlId: string;

  constructor(database: Database, crawlId: string) {
    this.#database = database;
    this.#crawlId = crawlId;
  }

  get #db() {
    return this.#database.db;
  }

  /** Pages fetched, in id order, `limit` after `afterId`. */
  pages(afterId: string | null, limit: number): Promise<BuildPageRow[]> {
    return this.#db
      .selectFrom('crawl_urls')
      .select([
        'id',
        'url',
        'url_key',
        'source',
        'depth',
        'status_code',
        'fetch_error',
        'final_url',
        'summary',
        'title_hash',
        'description_hash',
        'text_hash',
        'lang',
        'indexable',
      ])
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', '=', 'page')
      .where('state', '=', 'done')
      .$if(afterId !== null, (q) => q.where('id', '>', afterId as string))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The lab readings of these pages, in a rendering crawl. */
  async pageLabs(urlIds: string[]): Promise<Map<string, PageLab>> {
    if (urlIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('crawl_page_renders')
      .select(['url_id', 'lab'])
      .where('crawl_id', '=', this.#crawlId)
      .where('url_id', 'in', urlIds)
      .execute();
    return new Map(rows.map((row) => [row.url_id, JSON.parse(row.lab) as PageLab]));
  }

  pageFindings(urlIds: string[]): Promise<StoredFinding[]> {
    if (urlIds.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('crawl_findings')
      .select(['url_id', 'rule_id', 'severity', 'count', 'samples', 'detail'])
      .where('crawl_id', '=', this.#crawlId)
      .where('stage', '=', 'page')
      .where('url_id', 'in', urlIds)
      .execute();
  }

  /** Outgoing references of these pages whose target is not simply a crawled 200. */
  suspectLinks(sourceIds: string[]): Promise<SuspectLinkRow[]> {
    if (sourceIds.length === 0) return Promise.resolve([]);
    return (
      this.#db
        .selectFrom('crawl_links as l')
        // The crawl id as a value on both sides, and no condition on t.state: either of those led
        // PostgreSQL to read the targets through the frontier index, one crawl-wide scan per link.
        .innerJoin('crawl_urls as t', (join) => join.on('t.crawl_id', '=', this.#crawlId).onRef('t.url_key', '=', 'l.target_key'))
        .select([
          'l.source_id',
          'l.kind',
          't.id as target_id',
          't.url',
          't.url_key',
          't.kind as target_kind',
          't.status_code',
          't.fetch_error',
          't.final_url',
          't.bytes',
          't.indexable',
          't.state',
        ])
        .where('l.crawl_id', '=', this.#crawlId)
        .where('l.source_id', 'in', sourceIds)
        .where((eb) =>
          eb.or([
            eb('t.status_code', 'is', null),
            eb('t.status_code', '<', 200),
            eb('t.status_code', '>=', 300),
            eb('l.kind', 'in', ['canonical', 'hreflang']),
            eb.and([eb('l.kind', '=', 'image'), eb('t.bytes', '>', HEAVY_IMAGE_BYTES)]),
          ]),
        )
        .execute()
    );
  }

  /** Every internal redirect of the crawl: chains are followed in memory (they are few). */
  redirects(): Promise<RedirectRow[]> {
    return this.#db
      .selectFrom('crawl_urls')
      .select(['url', 'url_key', 'status_code', 'final_url'])
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', '=', 'page')
      .where('status_code', '>=', 300)
      .where('status_code', '<', 400)
      .execute();
  }

  terminals(urlKeys: string[]): Promise<TerminalRow[]> {
    if (urlKeys.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('crawl_urls')
      .select(['url', 'url_key', 'status_code', 'fetch_error', 'indexable'])
      .where('crawl_id', '=', this.#crawlId)
      .where('url_key', 'in', urlKeys)
      .where('state', '=', 'done')
      .execute();
  }

  /** hreflang links from `sourceIds` back to any of `targetKeys`, as `source_id target_key`. */
  async hreflangReturns(sourceIds: string[], targetKeys: string[]): Promise<Set<string>> {
    if (sourceIds.length === 0 || targetKeys.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom('crawl_links')
      .select(['source_id', 'target_key'])
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', '=', 'hreflang')
      .where('source_id', 'in', sourceIds)
      .where('target_key', 'in', targetKeys)
      .execute();
    return new Set(rows.map((row) => `${row.source_id} ${row.target_key}`));
  }

  /** Whether any page of the crawl has hreflang annotations (most sites have none). */
  async hasHreflangs(): Promise<boolean> {
    const row = await this.#db
      .selectFrom('crawl_hreflangs')
      .select('source_id')
      .where('crawl_id', '=', this.#crawlId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The hreflang annotations naming any of `targetKeys`, with the URL of the page that made each. */
  hreflangReferences(targetKeys: string[]): Promise<HreflangReferenceRow[]> {
    if (targetKeys.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('crawl_hreflangs as h')
      .innerJoin('crawl_urls as u', 'u.id', 'h.source_id')
      .select(['h.target_key', 'h.code', 'h.source_id', 'u.url as source_url'])
      .where('h.crawl_id', '=', this.#crawlId)
      .where('h.target_key', 'in', targetKeys)
      .orderBy('u.id')
      .execute();
  }

  /** Links to each URL from the crawl's other pages (self links are not stored), by url_key. */
  async inlinks(): Promise<Map<string, number>> {
    const rows = await this.#db
      .selectFrom('crawl_links')
      .select(['target_key', (eb) => eb.fn.countAll<number>().as('n')])
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', '=', 'link')
      .groupBy('target_key')
      .execute();
    return new Map(rows.map((row) => [row.target_key, Number(row.n)]));
  }

  /**
   * Groups of indexable pages sharing a key column (title, description or text hash), with
   * the group's size and up to four of its URLs. Titles and descriptions group by language too.
   */
  async duplicateGroups(column: 'title_hash' | 'description_hash' | 'text_hash'): Promise<Map<string, { size: number; urls: string[] }>> {
    const byLanguage = column !== 'text_hash';
    const groupKey = (hash: string, lang: string | null) => (byLanguage ? `${hash} ${lang ?? ''}` : hash);
    const groups = await this.#db
      .selectFrom('crawl_urls')
      .select([column, 'lang', (eb) => eb.fn.countAll<number>().as('n')])
      .where('crawl_id', '=', this.#crawlId)
      .where('indexable', '=', 1)
      .where(column, 'is not', null)
      .groupBy([column, 'lang'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    const result = new Map<string, { size: number; urls: string[] }>();
    for (const group of groups) {
      const key = groupKey(group[column] as string, group.lang);
      const existing = result.get(key);
      result.set(key, { size: (existing?.size ?? 0) + Number(group.n), urls: [] });
    }
    if (result.size === 0) return result;
    // Samples: stream the members of duplicated groups, keeping four URLs per group.
    const hashes = [...new Set(groups.map((group) => group[column] as string))];
    for (let start = 0; start < hashes.length; start += 500) {
      const rows = await this.#db
        .selectFrom('crawl_urls')
        .select(['url', column, 'lang'])
        .where('crawl_id', '=', this.#crawlId)
        .where('indexable', '=', 1)
        .where(column, 'in', hashes.slice(start, start + 500))
        .orderBy('id')
        .execute();
      for (const row of rows) {
        const group = result.get(groupKey(row[column] as string, row.lang));
        if (group && group.urls.length < 4) group.urls.push(row.url);
      }
    }
    return result;
  }

  /** Indexable pages long enough to have a SimHash (about 150 bytes a page in memory). */
  async simhashedPages(): Promise<SimhashedPage[]> {
    const rows = await this.#db
      .selectFrom('crawl_urls')
      .select(['id', 'url', 'simhash', 'text_hash'])
      .where('crawl_id', '=', this.#crawlId)
      .where('indexable', '=', 1)
      .where('simhash', 'is not', null)
      .execute();
    return rows.map((row) => ({ id: row.id, url: row.url, simhash: row.simhash as string, textHash: row.text_hash }));
  }

  /** Counts for the sitemap checks, with their URLs (up to MAX_INSTANCES each). */
  async sitemapCoverage() {
    const listed = this.#db
      .selectFrom('crawl_urls')
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', '=', 'page')
      .where('state', '=', 'done')
      .where('source', '=', 'sitemap');
    const blocked = (eb: ExpressionBuilder<Schema, 'crawl_urls'>) => eb('fetch_error', '=', 'blocked-by-robots');
    // (fetch_error is null or …): NOT on a null comparison would drop the rows without an error.
    const notBlocked = (eb: ExpressionBuilder<Schema, 'crawl_urls'>) =>
      eb.or([eb('fetch_error', 'is', null), eb('fetch_error', '<>', 'blocked-by-robots')]);
    const not200 = listed.where((eb) =>
      eb.and([eb.or([eb('status_code', 'is', null), eb('status_code', '<', 200), eb('status_code', '>=', 300)]), notBlocked(eb)]),
    );
    // Listed but never to be indexed: noindex or canonicalized elsewhere, or disallowed by robots.txt.
    const nonIndexable = listed.where((eb) => eb.or([eb('indexable', '=', 0), blocked(eb)]));
    const indexable = this.#db.selectFrom('crawl_urls').where('crawl_id', '=', this.#crawlId).where('indexable', '=', 1);
    const unlisted = indexable.where('source', '<>', 'sitemap');
    const count = async (query: typeof listed) =>
      Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const samples = async (query: typeof listed) =>
      (await query.select('url').orderBy('id').limit(MAX_INSTANCES).execute()).map((row) => row.url);
    return {
      listedFetched: await count(listed),
      listedNot200: await count(not200),
      listedNot200Samples: await samples(not200),
      listedNonIndexable: await count(nonIndexable),
      listedNonIndexableSamples: await samples(nonIndexable),
      indexablePages: await count(indexable),
      indexableUnlisted: await count(unlisted),
      indexableUnlistedSamples: await samples(unlisted),
    };
  }

  /** A rebuild starts over: the findings of a previous build go. */
  async clearSiteFindings(): Promise<void> {
    await this.#db.deleteFrom('crawl_findings').where('crawl_id', '=', this.#crawlId).where('stage', '=', 'site').execute();
  }

  async insertSiteFindings(rows: Omit<Insertable<CrawlFindingTable>, 'id' | 'crawl_id' | 'stage'>[]): Promise<void> {
    for (let start = 0; start < rows.length; start += 500) {
      await this.#db
        .insertInto('crawl_findings')
        .values(rows.slice(start, start + 500).map((row) => ({ ...row, id: newId(), crawl_id: this.#crawlId, stage: 'site' })))
        .execute();
    }
  }

  /**
   * Writes the pages' scores and counts, a few hundred per statement: UPDATE … FROM (VALUES …)
   * reads the same on SQLite and PostgreSQL, whose unnamed VALUES columns are both column1…n
   * (the casts give PostgreSQL the types its parameters would otherwise lack).
   */
  async setPageResults(results: PageResult[]): Promise<void> {
    for (let start = 0; start < results.length; start += 200) {
      const rows = results
        .slice(start, start + 200)
        .map(
          (r) =>
            sql`(${r.id}, cast(${r.score} as real), cast(${r.inlinks} as integer), cast(${r.errors} as integer), cast(${r.warnings} as integer), cast(${r.notices} as integer), cast(${r.lcpMs} as double precision), cast(${r.cls} as double precision), cast(${r.tbtMs} as double precision))`,
        );
      await sql`
        update crawl_urls set score = v.column2, inlinks = v.column3, error_count = v.column4, warning_count = v.column5, notice_count = v.column6,
          lab_lcp_ms = v.column7, lab_cls = v.column8, lab_tbt_ms = v.column9
        from (values ${sql.join(rows)}) as v
        where crawl_urls.id = v.column1`.execute(this.#db);
    }
  }

  /** Whether URLs were still waiting when the crawl stopped (its report is partial). */
  /** The crawl's link checks (images, links to other sites): how many were asked, and why the others were not. */
  async linkChecks(): Promise<{ checked: number; notChecked: Record<keyof typeof NOT_CHECKED, number> }> {
    const rows = await this.#db
      .selectFrom('crawl_urls')
      .select((eb) => ['fetch_error', eb.fn.countAll<number>().as('n')])
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', 'in', ['asset', 'external'])
      .where('state', '=', 'done')
      .groupBy('fetch_error')
      .execute();
    const notChecked = { overCap: 0, timeBudget: 0, turnedOff: 0 };
    const reasons = Object.entries(NOT_CHECKED) as [keyof typeof NOT_CHECKED, string][];
    let checked = 0;
    for (const row of rows) {
      const reason = reasons.find(([, text]) => text === row.fetch_error)?.[0];
      if (reason) notChecked[reason] += Number(row.n);
      else checked += Number(row.n);
    }
    return { checked, notChecked };
  }

  async hasQueuedPages(): Promise<boolean> {
    const row = await this.#db
      .selectFrom('crawl_urls')
      .select('id')
      .where('crawl_id', '=', this.#crawlId)
      .where('kind', '=', 'page')
      .where('state', '<>', 'done')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
