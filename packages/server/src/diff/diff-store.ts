import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../database/database.ts';

/** One report's crawl as a side of a diff. */
export interface DiffSide {
  crawlId: string;
  /** The origin of the crawl's start URL (`http://example.com`): every crawled page shares it. */
  origin: string;
}

export interface ListedRows<Row> {
  total: number;
  rows: Row[];
}

export interface StatusChangeRow {
  url: string;
  before: number | null;
  after: number | null;
  /** The stored fetch errors (crawl_urls.fetch_error) of each side. */
  beforeError: string | null;
  afterError: string | null;
}

/** A page of one crawl as stored: its HTTP status, fetch error and state (null: the crawl has no row for it). */
export interface PageOutcomeRow {
  url: string;
  state: string | null;
  status: number | null;
  fetchError: string | null;
}

export interface TitleChangeRow {
  url: string;
  /** PageSummary JSON of each side, for the titles (read for the rows shown only). */
  beforeSummary: string | null;
  afterSummary: string | null;
}

export interface IssueRow {
  ruleId: string;
  url: string;
  /** The rule's URLs in the whole list, not only the rows returned. */
  total: number;
  /** 2 error, 1 warning, 0 notice: the worst among the rule's findings in the list. */
  severityRank: number;
}

export interface SiteFindingRow {
  ruleId: string;
  severity: string;
}

/** Stands for "no value" where a value is compared after GROUP BY (null would not compare). */
const NO_STATUS = -1;

/**
 * The set work of a diff, done by the database over two crawls' stored pages and findings, so a
 * 100,000-page report is never read into memory. Every comparison is one GROUP BY over both
 * sides at once (UNION ALL, each row tagged with its side; a key is on both sides when its group
 * has both tags), then a window count for the total and LIMIT for the rows shown. A GROUP BY is
 * a sort or a hash whatever the planner believes. The joins and anti-joins written first were at
 * the mercy of its estimates: on a crawl's freshly written rows (no statistics yet) both
 * databases picked nested loops, 160 s on PostgreSQL for 20,000 pages. As written, with
 * 100,000 pages and 190,000 findings a side and no statistics, the slowest statement (issues)
 * takes about 0.6 s on SQLite and 2 s on PostgreSQL.
 */
export class DiffStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async pageCount(side: DiffSide): Promise<number> {
    const row = await this.#database.db
      .selectFrom('crawl_urls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('crawl_id', '=', side.crawlId)
      .where('kind', '=', 'page')
      .where('state', '=', 'done')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Pages crawled in `from` that `against` did not crawl, as URLs of `from`; with `answered`,
   * only those of `from` that did (true) or did not (false) answer with a page.
   */
  async pagesOnlyIn(from: DiffSide, against: DiffSide, limit: number, answered?: boolean): Promise<ListedRows<PageOutcomeRow>> {
    const { rows } = await sql<OutcomeSqlRow>`
      select url, 'done' as state, status, fetch_error, count(*) over () as total
      from (
        select max(url) as url, max(status_code) as status, max(fetch_error) as fetch_error
        from (${pagesOf(from, 1, { answered })} union all ${pagesOf(against, 0)}) both_sides
        group by k
        having min(side) = 1
      ) only_from
      order by url
      limit ${limit}`.execute(this.#database.db);
    return outcomes(rows);
  }

  /**
   * Pages that answered with a page in `before` and do not in `after`: not crawled there at all,
   * found but never fetched, or fetched without a page (an error status, a failed redirect, no
   * answer, blocked by robots.txt), with how `after` left them, as URLs of `before`.
   */
  async gonePages(before: DiffSide, after: DiffSide, limit: number): Promise<ListedRows<PageOutcomeRow>> {
    const { rows } = await sql<OutcomeSqlRow>`
      select url, state, status, fetch_error, count(*) over () as total
      from (
        select
          max(case when side = 1 then url end) as url,
          max(case when side = 0 then state end) as state,
          max(case when side = 0 then status_code end) as status,
          max(case when side = 0 then fetch_error end) as fetch_error
        from (${pagesOf(before, 1, { answered: true })} union all ${pagesOf(after, 0, { anyState: true })}) both_sides
        group by k
        having max(side) = 1
      ) paired
      where coalesce(state, '') <> 'done' or not (${answeredSql(sql`status`, sql`fetch_error`)})
      order by url
      limit ${limit}`.execute(this.#database.db);
    return outcomes(rows);
  }

  /**
   * Pages of both whose HTTP status or fetch error differs (so timed out → blocked by robots.txt
   * is a change too), as URLs of `after`.
   */
  async statusChanges(before: DiffSide, after: DiffSide, limit: number): Promise<ListedRows<StatusChangeRow>> {
    const { rows } = await sql<{
      url: string;
      before: number | string;
      after: number | string;
      before_error: string;
      after_error: string;
      total: number | string;
    }>`
      select url, before, after, before_error, after_error, count(*) over () as total
      from (
        select
          max(case when side = 1 then url end) as url,
          max(case when side = 0 then coalesce(status_code, ${NO_STATUS}) end) as before,
          max(case when side = 1 then coalesce(status_code, ${NO_STATUS}) end) as after,
          max(case when side = 0 then coalesce(fetch_error, '') end) as before_error,
          max(case when side = 1 then coalesce(fetch_error, '') end) as after_error
        from (${pagesOf(after, 1)} union all ${pagesOf(before, 0)}) both_sides
        group by k
        having count(*) = 2
      ) paired
      where before <> after or before_error <> after_error
      order by url
      limit ${limit}`.execute(this.#database.db);
    return {
      total: Number(rows[0]?.total ?? 0),
      rows: rows.map((row) => ({
        url: row.url,
        before: statusOf(row.before),
        after: statusOf(row.after),
        beforeError: row.before_error || null,
        afterError: row.after_error || null,
      })),
    };
  }

  /**
   * Pages that were HTML both times (a page gone 404 changed its status, not its title) and
   * whose title differs, as URLs of `after`. Compared by title_hash (case-folded, spacing
   * collapsed: as the duplicate-title check compares); the titles themselves come from the
   * summaries of the rows shown.
   */
  async titleChanges(before: DiffSide, after: DiffSide, limit: number): Promise<ListedRows<TitleChangeRow>> {
    const { rows } = await sql<{ url: string; before_id: string; after_id: string; total: number | string }>`
      select url, before_id, after_id, count(*) over () as total
      from (
        select
          max(case when side = 1 then url end) as url,
          max(case when side = 0 then id end) as before_id,
          max(case when side = 1 then id end) as after_id,
          max(case when side = 0 then coalesce(title_hash, '') end) as before,
          max(case when side = 1 then coalesce(title_hash, '') end) as after
        from (${pagesOf(after, 1, { htmlOnly: true })} union all ${pagesOf(before, 0, { htmlOnly: true })}) both_sides
        group by k
        having count(*) = 2
      ) paired
      where before <> after
      order by url
      limit ${limit}`.execute(this.#database.db);
    const summaries = await this.#summaries(rows.flatMap((row) => [row.before_id, row.after_id]));
    return {
      total: Number(rows[0]?.total ?? 0),
      rows: rows.map((row) => ({
        url: row.url,
        beforeSummary: summaries.get(row.before_id) ?? null,
        afterSummary: summaries.get(row.after_id) ?? null,
      })),
    };
  }

  /**
   * Page findings of `from` whose rule and page `against` does not have: for each rule, its
   * total, its worst severity and its first `limit` URLs (of `from`) by URL. With `pageThere`,
   * only those whose page `against` crawled and that answered there with a page (true: the
   * finding was resolved), or the others (false: the finding went with its page).
   */
  async issuesOnlyIn(from: DiffSide, against: DiffSide, limit: number, pageThere?: boolean): Promise<IssueRow[]> {
    // Whether the page is there is a window over the page key, not a join: see the class comment.
    const there = pageThere === undefined ? sql`` : sql` and there = ${sql.lit(pageThere ? 1 : 0)}`;
    const { rows } = await sql<{ rule_id: string; url: string; total: number | string; severity: number | string }>`
      select rule_id, url, total, severity
      from (
        select rule_id, url,
          row_number() over (partition by rule_id order by url) as position,
          count(*) over (partition by rule_id) as total,
          max(severity_rank) over (partition by rule_id) as severity
        from (
          select rule_id, max(url) as url, max(severity_rank) as severity_rank
          from (
            select side, rule_id, url, severity_rank, k, max(case when side = 2 then 1 else 0 end) over (partition by k) as there
            from (${findingsOf(from, 1)} union all ${findingsOf(against, 0)} union all ${answeringPagesOf(against, 2)}) all_rows
          ) tagged
          where side < 2${there}
          group by rule_id, k
          having min(side) = 1
        ) only_from
      ) ranked
      where position <= ${limit}
      order by rule_id, position`.execute(this.#database.db);
    return rows.map((row) => ({ ruleId: row.rule_id, url: row.url, total: Number(row.total), severityRank: Number(row.severity) }));
  }

  /** Findings about the site rather than one page (robots.txt, sitemaps): a handful a crawl. */
  async siteFindings(side: DiffSide): Promise<SiteFindingRow[]> {
    const rows = await this.#database.db
      .selectFrom('crawl_findings')
      .select(['rule_id', 'severity'])
      .where('crawl_id', '=', side.crawlId)
      .where('url_id', 'is', null)
      .execute();
    return rows.map((row) => ({ ruleId: row.rule_id, severity: row.severity }));
  }

  async #summaries(ids: string[]): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#database.db.selectFrom('crawl_urls').select(['id', 'summary']).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row.summary]));
  }
}

/**
 * A side's crawled pages, tagged `side` (1 the side listed, 0 the other), with their key `k`.
 * `answered`: only those that did (or did not) answer with a page; `anyState`: found pages
 * never fetched too.
 */
function pagesOf(
  side: DiffSide,
  tag: 0 | 1,
  options: { htmlOnly?: boolean; answered?: boolean; anyState?: boolean } = {},
): RawBuilder<unknown> {
  const answered = answeredSql(sql`p.status_code`, sql`p.fetch_error`);
  const filters = [
    options.anyState ? sql`` : sql` and p.state = 'done'`,
    options.htmlOnly ? sql` and p.summary is not null` : sql``,
    options.answered === undefined ? sql`` : options.answered ? sql` and ${answered}` : sql` and not (${answered})`,
  ];
  return sql`
    select ${sql.lit(tag)} as side, p.id, p.url, ${pageKey(side)} as k, p.state, p.status_code, p.fetch_error, p.title_hash
    from crawl_urls p
    where p.crawl_id = ${side.crawlId} and p.kind = 'page'${sql.join(filters, sql``)}`;
}

/**
 * Whether a page answered with a page: 2xx, or a 3xx whose redirects did not fail (a body cut
 * short is still a page). Kept in step with answered() in page-outcome.ts.
 */
function answeredSql(status: RawBuilder<unknown>, fetchError: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`coalesce(${status}, 0) between 200 and 399 and (${fetchError} is null or ${fetchError} = 'truncated')`;
}

/** A side's pages that answered with a page, shaped as findingsOf's rows without a rule: they tag a page key as there. */
function answeringPagesOf(side: DiffSide, tag: 2): RawBuilder<unknown> {
  return sql`
    select ${sql.lit(tag)} as side, null as rule_id, 0 as severity_rank, p.url, ${pageKey(side)} as k
    from crawl_urls p
    where p.crawl_id = ${side.crawlId} and p.kind = 'page' and p.state = 'done' and ${answeredSql(sql`p.status_code`, sql`p.fetch_error`)}`;
}

/** A side's page findings, tagged like pagesOf, with their page's key (site-level findings have no page: see siteFindings). */
function findingsOf(side: DiffSide, tag: 0 | 1): RawBuilder<unknown> {
  return sql`
    select ${sql.lit(tag)} as side, f.rule_id, case f.severity when 'error' then 2 when 'warning' then 1 else 0 end as severity_rank,
      p.url, ${pageKey(side)} as k
    from crawl_findings f
    join crawl_urls p on p.id = f.url_id
    where f.crawl_id = ${side.crawlId} and f.url_id is not null`;
}

/**
 * What a page of `side` is matched on, over the crawl_urls alias `p`: its URL without the
 * origin, so path and query. Between two crawls of one origin that is the same as matching
 * whole URLs; between two origins it pairs http://a/x with https://www.a/x. Crawled pages are
 * internal, so all start with the origin; the guard keeps any other URL whole.
 */
function pageKey(side: DiffSide): RawBuilder<string> {
  const root = `${side.origin}/`;
  return sql<string>`case when substr(p.url, 1, ${root.length}) = ${root} then substr(p.url, ${side.origin.length + 1}) else p.url end`;
}

/** pageKey for a URL in hand (a site-level finding's). */
export function keyOfUrl(side: DiffSide, url: string): string {
  return url.startsWith(`${side.origin}/`) ? url.slice(side.origin.length) : url;
}

interface OutcomeSqlRow {
  url: string;
  state: string | null;
  status: number | string | null;
  fetch_error: string | null;
  total: number | string;
}

function outcomes(rows: OutcomeSqlRow[]): ListedRows<PageOutcomeRow> {
  return {
    total: Number(rows[0]?.total ?? 0),
    rows: rows.map((row) => ({
      url: row.url,
      state: row.state,
      status: row.status === null ? null : Number(row.status),
      fetchError: row.fetch_error,
    })),
  };
}

function statusOf(value: number | string): number | null {
  const status = Number(value);
  return status === NO_STATUS ? null : status;
}
