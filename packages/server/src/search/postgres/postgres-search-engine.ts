import type { SearchQuery } from '@loupe/contract';
import { sql } from 'kysely';
import type { Database } from '../../database/database.ts';
import { rankedWindow } from '../ranked-window.ts';
import type { RankedWindow, SealProgress, SearchDocument, SearchEngine } from '../search-engine.ts';
import { withAngleBrackets, withoutAngleBrackets } from '../snippets/snippet-html.ts';
import { markedSnippet } from '../snippets/text-snippet.ts';
import type { WordListsOptions } from '../word-list-settings.ts';
import { PostgresListSearch } from './postgres-list-search.ts';
import { PostgresQueryTerms, requiredPhrases } from './postgres-query-terms.ts';
import { wantedLexemes } from './postgres-snippet.ts';
import { matchQuery, wantedQuery } from './postgres-tsquery.ts';
import { PostgresWordPostings } from './postgres-word-postings.ts';

export class PostgresSearchEngine implements SearchEngine {
  readonly #database: Database;
  /**
   * Queries read their own snapshot meanwhile, so a transaction may be longer, and fewer commits
   * wait for the WAL to reach the disk (build times: bench/README.md, search).
   */
  readonly charsPerTransaction = 256 * 1024;

  readonly #postings: PostgresWordPostings;
  /**
   * Made by the first search: the index builder makes an engine for every transaction it
   * writes, and the term readings' cache allocates its 50,000 slots when made.
   */
  #lists?: PostgresListSearch;
  #terms?: PostgresQueryTerms;

  constructor(database: Database, options: WordListsOptions = {}) {
    this.#database = database;
    this.#postings = new PostgresWordPostings(database, options);
  }

  async add(buildId: string, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    // PostgreSQL's parser reads "<script>" in a text as a tag and drops its word; the stored
    // text carries stand-ins for < and > (the tsvector is generated from it), put back on reading.
    // Ordinals follow on from the generation's last (one build writes a generation, a batch at a time).
    await sql`
      INSERT INTO search_documents (build_id, ordinal, page_id, url, title, body)
      SELECT ${buildId}, next.ordinal + page.n - 1, page_id, url, title, body
      FROM unnest(${documents.map((d) => d.pageId)}::text[], ${documents.map((d) => d.url)}::text[],
        ${documents.map((d) => (d.title === null ? null : withoutAngleBrackets(d.title)))}::text[],
        ${documents.map((d) => withoutAngleBrackets(d.body))}::text[]) WITH ORDINALITY AS page(page_id, url, title, body, n)
      CROSS JOIN (SELECT coalesce(max(ordinal) + 1, 0) AS ordinal FROM search_documents WHERE build_id = ${buildId}) next
    `.execute(this.#database.db);
  }

  /**
   * The whole generation in one statement, whatever the limit: readers keep their snapshot
   * (MVCC), so nothing waits on it as on SQLite's one connection. Its word lists go too (a
   * failed build's, kept to tell the index's state, would otherwise stay), by the call that
   * finds no document left: the last of a sweep's, so once a sweep, and after a sweep that
   * stopped between the two.
   */
  async remove(buildId: string): Promise<number> {
    const db = this.#database.db;
    const result = await sql`DELETE FROM search_documents WHERE build_id = ${buildId}`.execute(db);
    const removed = Number(result.numAffectedRows ?? 0);
    if (removed === 0) {
      await sql`DELETE FROM search_word_lists WHERE build_id = ${buildId}`.execute(db);
      await sql`DELETE FROM search_word_postings WHERE build_id = ${buildId}`.execute(db);
      await sql`DELETE FROM search_list_blocks WHERE build_id = ${buildId}`.execute(db);
    }
    return removed;
  }

  /** Stores the generation's word lists. */
  seal(buildId: string, signal: AbortSignal, progress: SealProgress): Promise<boolean> {
    return this.#postings.build(buildId, signal, progress);
  }

  /**
   * A generation replaced is every row of the project changed: the planner's statistics (how
   * many rows hold a lexeme) are then those of documents gone, or none on a new table, and it
   * reads every word through the GIN index, even one on most pages, which a sequential scan
   * reads faster. Autovacuum catches up in its own time (never where it is off); ANALYZE reads
   * a sample of 30,000 rows at most, a second or two of the job.
   */
  async settle(): Promise<void> {
    await sql`ANALYZE search_documents`.execute(this.#database.db);
  }

  /** Over the ready build's word lists where they can answer, else ranked in SQL. */
  async search(
    projectId: string,
    query: SearchQuery,
    window: { offset: number; limit: number },
    readyBuildId?: string,
  ): Promise<RankedWindow | undefined> {
    this.#lists ??= new PostgresListSearch(this.#database, this.#postings, this.#queryTerms());
    const listed = readyBuildId === undefined ? undefined : await this.#lists.search(readyBuildId, query, window);
    return listed ?? this.searchBySql(projectId, query, window);
  }

  #queryTerms(): PostgresQueryTerms {
    return (this.#terms ??= new PostgresQueryTerms(this.#database));
  }

  /** ts_rank over every match of the project's ready generation; public for the tests that compare. */
  async searchBySql(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    // The snippets mark the wanted terms as PostgreSQL read them (an excluded one is in no hit).
    const wanted = wantedLexemes(requiredPhrases(query, await this.#queryTerms().read(query.required.flat())));
    // One hit more than the window is ranked, to tell whether more follow; the text is read for
    // the window's hits only, for their snippets. The first row names the build that answered,
    // hits or not.
    //
    // The matches of every generation are ranked by their tsvector alone: a generation written
    // before migration 0022 keeps its other columns in the TOAST table, where testing build_id
    // costs a probe a match. The best are then tested for the ready build in score order until
    // the window's end has matches of it; the lowest of their scores is the threshold, and only
    // matches scoring that or more are tested again and ordered by score and page id: every hit
    // of the window, ties too, whatever order the plan tests them in.
    //
    // A query whose wanted terms are all stop words wants nothing: no hits, as "the" alone
    // (an empty tsquery matches nothing), even beside an exclusion, which && would leave alone
    // to match every page without it.
    const mine = sql`x.build_id = (SELECT id FROM current)`;
    const result = await sql<{
      n: number;
      build_id: string | null;
      report_id: string | null;
      page_id: string;
      url: string;
      title: string | null;
      body: string | null;
      score: number;
    }>`
      WITH current AS (
        SELECT id, report_id FROM search_builds WHERE project_id = ${projectId} AND state = 'ready'
      ),
      scored AS MATERIALIZED (
        SELECT d.ctid AS tid, ts_rank(d.document, ${wantedQuery(query)}, 1) AS score
        FROM search_documents d
        WHERE numnode(${wantedQuery(query)}) > 0 AND d.document @@ ${matchQuery(query)}
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
      )
      SELECT 0::bigint AS n, current.id AS build_id, current.report_id, NULL AS page_id, NULL AS url, NULL AS title, NULL AS body, NULL::real AS score
      FROM current
      UNION ALL
      SELECT numbered.n, NULL, NULL, d.page_id, d.url, d.title, CASE WHEN numbered.n <= ${window.limit} THEN d.body END, numbered.score
      FROM numbered JOIN search_documents d ON d.ctid = numbered.tid
      ORDER BY n
    `.execute(this.#database.db);
    return rankedWindow(result.rows, window.limit, (row) => ({
      pageId: row.page_id,
      url: row.url,
      title: row.title === null ? null : withAngleBrackets(row.title),
      markedSnippet: markedSnippet(withAngleBrackets(row.body ?? ''), wanted),
      score: row.score,
    }));
  }
}
