import type { SearchQuery, SearchTerm } from '@loupe/contract';
import { sql } from 'kysely';
import type { Database } from '../database/database.ts';
import { bestDocuments } from './postings-ranking.ts';
import { rankedWindow } from './ranked-window.ts';
import type { RankedWindow, SearchDocument, SearchEngine } from './search-engine.ts';
import { wordKey } from './search-words.ts';
import { markedSnippet, wantedPhrases } from './text-snippet.ts';
import { SqliteWordPostings, type ReadyLists, type WordListsOptions } from './sqlite-word-postings.ts';

/** A generation's rowids are its number times this, plus 0 … this − 1 (migration 0014); written as literals, so SQLite computes in integers. */
const SPAN = sql.lit(4294967296);
const LAST = sql.lit(4294967295);

/** FTS5 strings take any character; a double quote is written twice. */
const phrase = (term: SearchTerm) => `"${term.text.replaceAll('"', '""')}"`;

/**
 * The query in FTS5's syntax; every word is inside a string, so no text of the user's is read
 * as an operator or a column name. NOT binds tighter than AND in FTS5: `P NOT E`.
 */
export function fts5Expression(query: SearchQuery): string {
  const groups = query.required.map((group) => (group.length === 1 ? phrase(group[0]) : `(${group.map(phrase).join(' OR ')})`));
  const wanted = groups.join(' AND ');
  if (query.excluded.length === 0) return wanted;
  return `(${wanted}) NOT (${query.excluded.map(phrase).join(' OR ')})`;
}

/** The query's words by key, or undefined when a term is not one word (a phrase): FTS5 alone reads those. */
function queryWords(query: SearchQuery): { required: string[][]; excluded: string[] } | undefined {
  const required = query.required.map((group) => group.map((term) => wordKey(term.text)));
  const excluded = query.excluded.map((term) => wordKey(term.text));
  if (required.flat().includes(undefined) || excluded.includes(undefined)) return undefined;
  return { required: required as string[][], excluded: excluded as string[] };
}

/** A search the word lists cannot answer (no lists yet, a group of rare words only): FTS5 ranks it. */
const TO_FTS5 = Symbol('to FTS5');

/**
 * FTS5 over the documents, each generation in a rowid range of its own; a query of single words
 * whose every group holds a common word is ranked over the generation's word lists instead
 * (sqlite-word-postings.ts), the same hits in the same order. Snippets are made from the hits'
 * text (text-snippet.ts), not by FTS5's snippet().
 */
export class SqliteSearchEngine implements SearchEngine {
  readonly #database: Database;
  readonly #lists: SqliteWordPostings;

  constructor(database: Database, options: WordListsOptions = {}) {
    this.#database = database;
    this.#lists = new SqliteWordPostings(database, options);
  }

  async add(buildId: string, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const db = this.#database.db;
    // The build's number: the next free one, taken by its first batch (one writer at a time on SQLite).
    await sql`INSERT OR IGNORE INTO search_generations (build_id, number)
      SELECT ${buildId}, coalesce(max(number), 0) + 1 FROM search_generations`.execute(db);
    const { rows } = await sql<{ number: number; next: number }>`
      SELECT g.number, coalesce((
        SELECT max(rowid) FROM search_documents WHERE rowid BETWEEN g.number * ${SPAN} AND g.number * ${SPAN} + ${LAST}
      ) - g.number * ${SPAN} + 1, 0) AS next
      FROM search_generations g WHERE g.build_id = ${buildId}`.execute(db);
    const { number, next } = rows[0];
    // Five values a row, far below SQLite's 32,766 bound variables.
    for (let start = 0; start < documents.length; start += 500) {
      const values = documents
        .slice(start, start + 500)
        .map((d, i) => sql`(${number} * ${SPAN} + ${next + start + i}, ${d.title}, ${d.body}, ${d.pageId}, ${d.url})`);
      await sql`INSERT INTO search_documents (rowid, title, body, page_id, url) VALUES ${sql.join(values)}`.execute(db);
    }
  }

  async remove(buildId: string, limit: number): Promise<number> {
    const result = await sql`DELETE FROM search_documents WHERE rowid IN (
      SELECT d.rowid FROM search_generations g JOIN search_documents d
        ON d.rowid BETWEEN g.number * ${SPAN} AND g.number * ${SPAN} + ${LAST}
      WHERE g.build_id = ${buildId} LIMIT ${limit}
    )`.execute(this.#database.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** Stores the generation's word lists. */
  seal(buildId: string, signal: AbortSignal): Promise<boolean> {
    return this.#lists.build(buildId, signal);
  }

  /** FTS5 plans a MATCH the same whatever the documents: nothing to bring up to date. */
  async settle(): Promise<void> {}

  async search(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    const words = queryWords(query);
    if (words) {
      const answer = await this.#searchLists(projectId, query, words, window);
      if (answer !== TO_FTS5) return answer;
    }
    return this.searchFts5(projectId, query, window);
  }

  /**
   * Ranks over the stored lists: a group's words without a list of their own (rarer than the
   * threshold) are ranked by FTS5 on the spot, an excluded word only looked up.
   */
  async #searchLists(
    projectId: string,
    query: SearchQuery,
    words: { required: string[][]; excluded: string[] },
    window: { offset: number; limit: number },
  ): Promise<RankedWindow | undefined | typeof TO_FTS5> {
    const ready = await this.#lists.read(projectId, [...new Set([...words.required.flat(), ...words.excluded])]);
    if (!ready) return undefined;
    if (ready.threshold === undefined || !words.required.every((group) => group.some((word) => ready.lists.has(word)))) return TO_FTS5;
    const groups = await Promise.all(words.required.map((group) => Promise.all(group.map((word) => this.#listOf(ready, word)))));
    const excluded = await Promise.all(words.excluded.map((word) => ready.lists.get(word)?.ordinals ?? this.#lists.matching(ready.base, word)));
    const best = bestDocuments({ groups, excluded }, window.offset + window.limit + 1);
    const shown = best.slice(window.offset, window.offset + window.limit);
    const rows = await this.#database.read(
      sql<{ n: number; page_id: string; url: string; title: string | null; body: string }>`
        SELECT hit.key AS n, d.page_id, d.url, d.title, d.body
        FROM json_each(${JSON.stringify(shown.map((hit) => ready.base + hit.ordinal))}) AS hit
        CROSS JOIN search_documents d WHERE d.rowid = hit.value
        ORDER BY hit.key
      `.compile(this.#database.db),
    );
    // A rebuild switched and swept the generation away since the lists were read.
    if (rows.length !== shown.length) return TO_FTS5;
    const phrases = wantedPhrases(query);
    return {
      buildId: ready.buildId,
      reportId: ready.reportId,
      hits: rows.map((row, i) => ({ pageId: row.page_id, url: row.url, title: row.title, markedSnippet: markedSnippet(row.body, phrases), score: shown[i].score })),
      more: best.length > window.offset + window.limit,
    };
  }

  #listOf(ready: ReadyLists, word: string) {
    return ready.lists.get(word) ?? this.#lists.ranked(ready.base, word);
  }

  /** The query ranked by FTS5 alone (bm25 of every match); public for the tests that compare. */
  async searchFts5(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    const expression = fts5Expression(query);
    // Ranked first on the index alone, one hit more than the window to tell whether more
    // follow; only the window's hits are read again, for their text to make snippets of.
    // CROSS JOIN keeps SQLite from turning
    // either join around: FTS5 gets the generation's rowid range as bounds to seek by (with a
    // plain JOIN it reads the matches of every project's generation, then drops the others'),
    // and the second read seeks by rowid. It runs on a reader thread (Database.read): ranking
    // the matches of a common word takes tens of milliseconds, which the event loop would wait.
    const ranked = sql<{ n: number; build_id: string | null; report_id: string | null; page_id: string; url: string; title: string | null; body: string | null; score: number }>`
      WITH current AS (
        SELECT b.id, b.report_id, g.number * ${SPAN} AS low, g.number * ${SPAN} + ${LAST} AS high
        FROM search_builds b JOIN search_generations g ON g.build_id = b.id
        WHERE b.project_id = ${projectId} AND b.state = 'ready'
      ),
      top AS (
        SELECT d.rowid AS rid, d.rank AS rank
        FROM current CROSS JOIN search_documents d
        WHERE d.search_documents MATCH ${expression} AND d.rowid >= current.low AND d.rowid <= current.high
        ORDER BY d.rank, d.rowid
        LIMIT ${window.limit + 1} OFFSET ${window.offset}
      ),
      numbered AS (
        SELECT rid, rank, row_number() OVER (ORDER BY rank, rid) AS n FROM top
      )
      SELECT 0 AS n, current.id AS build_id, current.report_id, NULL AS page_id, NULL AS url, NULL AS title, NULL AS body, NULL AS score
      FROM current
      UNION ALL
      SELECT numbered.n, NULL, NULL, d.page_id, d.url, d.title, CASE WHEN numbered.n <= ${window.limit} THEN d.body END, -numbered.rank
      FROM numbered CROSS JOIN search_documents d
      WHERE d.rowid = numbered.rid
      ORDER BY 1
    `;
    const rows = await this.#database.read(ranked.compile(this.#database.db));
    const phrases = wantedPhrases(query);
    return rankedWindow(rows, window.limit, (row) => ({
      pageId: row.page_id,
      url: row.url,
      title: row.title,
      markedSnippet: markedSnippet(row.body ?? '', phrases),
      score: row.score,
    }));
  }
}
