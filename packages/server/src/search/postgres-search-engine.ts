import type { SearchQuery, SearchTerm } from '@loupe/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../database/database.ts';
import { rankedWindow } from './ranked-window.ts';
import type { RankedWindow, SearchDocument, SearchEngine } from './search-engine.ts';
import { MARK_END, MARK_START, withAngleBrackets, withoutAngleBrackets } from './snippet-html.ts';

type TsQuery = RawBuilder<unknown>;

/** As the tsvector column of migration 0014 is made. */
const CONFIG = sql`'english'::regconfig`;

/**
 * Each term goes through phraseto_tsquery as a bound value, so PostgreSQL's parser splits and
 * stems it as it did the pages (a word of a stop list, such as "the", matches everything and
 * is left out), and nothing typed is ever read as tsquery syntax.
 */
const termQuery = (term: SearchTerm): TsQuery => sql`phraseto_tsquery(${CONFIG}, ${term.text})`;
const anyOf = (terms: readonly SearchTerm[]): TsQuery =>
  terms.length === 1 ? termQuery(terms[0]) : sql`(${sql.join(terms.map(termQuery), sql` || `)})`;

/** What ranks and highlights: the wanted terms (an excluded word is in no hit). */
const wantedQuery = (query: SearchQuery): TsQuery => sql`(${sql.join(query.required.map(anyOf), sql` && `)})`;

/** What a hit must match: every group, and none of the exclusions. */
function matchQuery(query: SearchQuery): TsQuery {
  return query.excluded.length === 0 ? wantedQuery(query) : sql`(${wantedQuery(query)} && !!${anyOf(query.excluded)})`;
}

/** One fragment of about 30 words around the best match. */
const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=15, MaxFragments=1`;

/**
 * ts_headline parses the whole text it is given (≈ 0.7 ms for a page of 700 words, most of a
 * query's time), so it gets the words around the first match instead. The tsvector knows that
 * match's position: its text's words are counted from the title's last position (`||` shifts
 * the body's positions so), and the index of that word in the text split at spaces is at most
 * the position and rarely much less (the parser counts a hyphenated word and its parts, three
 * positions for one word), hence the words from 0.8 times the position to the position, 30
 * more each side. A window that misses the match (a page of many hyphenated words) falls back
 * to the whole text; a match in the title alone shows the text's start.
 */
function snippetParts(query: SearchQuery) {
  const headline = (text: RawBuilder<unknown>) => sql<string>`ts_headline(${CONFIG}, ${text}, ${wantedQuery(query)}, ${HEADLINE_OPTIONS})`;
  const words = (from: RawBuilder<unknown>, to: RawBuilder<unknown>) => sql`array_to_string((string_to_array(d.body, ' '))[${from} : ${to}], ' ')`;
  return {
    near: headline(words(sql`greatest(1, floor(hit.at * 0.8)::int - 30)`, sql`hit.at + 30`)),
    start: headline(words(sql`1`, sql`60`)),
    whole: headline(sql`d.body`),
  };
}

export class PostgresSearchEngine implements SearchEngine {
  readonly #database: Database;
  /**
   * Queries read their own snapshot meanwhile, so a transaction may be longer, and fewer commits
   * wait for the WAL to reach the disk (at 50,000 pages: 209 s in 256 KB transactions, 224 s in
   * 64 KB ones).
   */
  readonly charsPerTransaction = 256 * 1024;

  constructor(database: Database) {
    this.#database = database;
  }

  async add(buildId: string, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    // PostgreSQL's parser reads "<script>" in a text as a tag and drops its word; the stored
    // text carries stand-ins for < and > (the tsvector is generated from it), put back on reading.
    await sql`
      INSERT INTO search_documents (build_id, page_id, url, title, body)
      SELECT ${buildId}, page_id, url, title, body
      FROM unnest(${documents.map((d) => d.pageId)}::text[], ${documents.map((d) => d.url)}::text[],
        ${documents.map((d) => (d.title === null ? null : withoutAngleBrackets(d.title)))}::text[],
        ${documents.map((d) => withoutAngleBrackets(d.body))}::text[]) AS page(page_id, url, title, body)
    `.execute(this.#database.db);
  }

  /**
   * The whole generation in one statement, whatever the limit: readers keep their snapshot
   * (MVCC), so nothing waits on it as on SQLite's one connection; no index leads with build_id
   * (see the migration), so it is one pass over the table rather than one per batch.
   */
  async remove(buildId: string): Promise<number> {
    const result = await sql`DELETE FROM search_documents WHERE build_id = ${buildId}`.execute(this.#database.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * A generation replaced is every row of the project changed: the planner's statistics (how
   * many rows hold a lexeme) are then those of documents gone, or none on a new table, and it
   * reads every word through the GIN index, even one on most pages, which a sequential scan
   * reads faster. Autovacuum catches up in its own time (never where it is off); ANALYZE reads
   * a sample of 30,000 rows at most, a second or two of the job.
   */
  /** PostgreSQL ranks each query in SQL: a build stores nothing besides its documents. */
  async seal(): Promise<boolean> {
    return true;
  }

  async settle(): Promise<void> {
    await sql`ANALYZE search_documents`.execute(this.#database.db);
  }

  async search(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    const wantedText = query.required.flat().map((term) => term.text).join(' ');
    const parts = snippetParts(query);
    // One hit more than the window is ranked, to tell whether more follow; ts_headline runs on
    // the window's hits only. The first row names the build that answered, hits or not.
    //
    // Ranking reads the tsvector of every match, kept in the row. Every other column is in the
    // TOAST table (the tsvector alone puts the row over the toaster's 2 KB target, so it moves
    // out even the 36-character ids), where each read is an index probe: testing build_id on
    // the 34,000 matches of a common word at 50,000 pages took longer than ranking them (190
    // against 70 ms). So the matches of every generation are ranked by the tsvector alone; the
    // best are then tested for the ready build one by one, in score order, until the window's
    // end has matches of it, the lowest of whose scores is the threshold; only matches scoring
    // that or more are tested again and ordered by score and page id. They include every hit
    // of the window, ties too: the same hits in the same order as sorting all the build's
    // matches. (Any hits of the build, tested in whatever order, give a threshold no higher:
    // the answer holds whatever the plan; only the cost depends on the order.)
    const mine = sql`x.build_id = (SELECT id FROM current)`;
    const result = await sql<{ n: number; build_id: string | null; report_id: string | null; page_id: string; url: string; title: string | null; snippet: string | null; score: number }>`
      WITH current AS (
        SELECT id, report_id FROM search_builds WHERE project_id = ${projectId} AND state = 'ready'
      ),
      scored AS MATERIALIZED (
        SELECT d.ctid AS tid, ts_rank(d.document, ${wantedQuery(query)}, 1) AS score
        FROM search_documents d
        WHERE d.document @@ ${matchQuery(query)}
        ORDER BY score DESC
      ),
      threshold AS (
        SELECT min(best.score) AS score FROM (
          SELECT s.score FROM scored s
          -- LATERAL with OFFSET 0: a probe per row, in score order, until the LIMIT.
          CROSS JOIN LATERAL (SELECT 1 FROM search_documents x WHERE x.ctid = s.tid AND ${mine} OFFSET 0) m
          LIMIT ${window.offset + window.limit + 1}
        ) best
      ),
      top AS (
        SELECT m.tid, m.page_id, s.score
        FROM scored s CROSS JOIN threshold
        CROSS JOIN LATERAL (SELECT x.ctid AS tid, x.page_id FROM search_documents x WHERE x.ctid = s.tid AND ${mine} OFFSET 0) m
        WHERE s.score >= threshold.score
        ORDER BY s.score DESC, m.page_id
        LIMIT ${window.limit + 1} OFFSET ${window.offset}
      ),
      numbered AS (
        SELECT tid, page_id, score, row_number() OVER (ORDER BY score DESC, page_id) AS n FROM top
      ),
      wanted AS (
        SELECT coalesce(array_agg(lexeme), '{}') AS lexemes FROM unnest(to_tsvector(${CONFIG}, ${wantedText}))
      )
      SELECT 0::bigint AS n, current.id AS build_id, current.report_id, NULL AS page_id, NULL AS url, NULL AS title, NULL AS snippet, NULL::real AS score
      FROM current
      UNION ALL
      SELECT numbered.n, NULL, NULL, d.page_id, d.url, d.title,
        CASE WHEN numbered.n > ${window.limit} THEN NULL WHEN hit.at IS NULL THEN ${parts.start} WHEN strpos(near.snippet, ${MARK_START}) > 0 THEN near.snippet ELSE ${parts.whole} END,
        numbered.score
      FROM numbered CROSS JOIN wanted
      JOIN search_documents d ON d.ctid = numbered.tid
      -- The text's first match: the wanted lexemes' first position past the title's last.
      -- setweight marks those lexemes (every other position weighs A or B) so that ts_filter
      -- keeps them alone: unnesting the whole tsvector into rows instead costs 0.19 ms a hit,
      -- this 0.04 ms.
      CROSS JOIN LATERAL (
        SELECT coalesce((SELECT max(p) FROM unnest(ts_filter(d.document, '{a}')) AS u, unnest(u.positions) AS p), 0) AS title_end
        -- OFFSET 0 keeps the planner from copying the subquery into every use of its column.
        OFFSET 0
      ) title
      CROSS JOIN LATERAL (
        SELECT CASE WHEN numbered.n <= ${window.limit} THEN (
          SELECT min(p) FROM unnest(ts_filter(setweight(d.document, 'D', wanted.lexemes), '{d}')) AS u, unnest(u.positions) AS p
          WHERE p > title.title_end
        ) - title.title_end END AS at
        OFFSET 0
      ) hit
      CROSS JOIN LATERAL (SELECT CASE WHEN hit.at IS NULL THEN NULL ELSE ${parts.near} END AS snippet OFFSET 0) near
      ORDER BY n
    `.execute(this.#database.db);
    return rankedWindow(result.rows, window.limit, (row) => ({
      pageId: row.page_id,
      url: row.url,
      title: row.title === null ? null : withAngleBrackets(row.title),
      markedSnippet: row.snippet ?? '',
      score: row.score,
    }));
  }
}
