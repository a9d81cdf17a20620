import type { SearchQuery } from '@loupe/contract';
import { sql } from 'kysely';
import type { Database } from '../../database/database.ts';
import { onReader } from '../../database/reader-procedure.ts';
import type { RankedWindow, SealProgress, SearchDocument, SearchEngine } from '../search-engine.ts';
import { LIST_CACHE_BYTES, type WordListsOptions } from '../word-list-settings.ts';
import { wordKey } from './search-words.ts';
import { SharedWordLists } from './shared-word-lists.ts';
import { SPAN as GENERATION_SPAN, SEARCH_BY_FTS5, SEARCH_BY_LISTS } from './sqlite-search-reads.ts';
import { SqliteWordPostings } from './sqlite-word-postings.ts';

/** A generation's rowids are its number times this, plus 0 … this − 1 (migration 0014); written as literals, so SQLite computes in integers. */
const SPAN = sql.lit(GENERATION_SPAN);
const LAST = sql.lit(GENERATION_SPAN - 1);

/** The query's words by key, or undefined when a term is not one word (a phrase): FTS5 alone reads those. */
function queryWords(query: SearchQuery): { required: string[][]; excluded: string[] } | undefined {
  const required = query.required.map((group) => group.map((term) => wordKey(term.text)));
  const excluded = query.excluded.map((term) => wordKey(term.text));
  if (required.flat().includes(undefined) || excluded.includes(undefined)) return undefined;
  return { required: required as string[][], excluded: excluded as string[] };
}

/**
 * FTS5 over the documents, each generation in a rowid range of its own; a query of single words
 * whose every group holds a common word is ranked over the generation's word lists instead
 * (sqlite-word-postings.ts), the same hits in the same order. Snippets are made from the hits'
 * text (sqlite-snippet.ts), not by FTS5's snippet().
 */
export class SqliteSearchEngine implements SearchEngine {
  readonly #database: Database;
  readonly #lists: SqliteWordPostings;
  /** The lists the reader threads read lately, for the next queries of their words. */
  readonly #kept: SharedWordLists;
  /**
   * Queries wait for the one connection while a transaction holds it, so each stays short: a
   * few milliseconds of FTS5's indexing (bench/README.md, search).
   */
  readonly charsPerTransaction = 64 * 1024;

  constructor(database: Database, options: WordListsOptions = {}) {
    this.#database = database;
    this.#lists = new SqliteWordPostings(database, options);
    this.#kept = new SharedWordLists(options.cacheBytes ?? LIST_CACHE_BYTES);
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
  seal(buildId: string, signal: AbortSignal, progress: SealProgress): Promise<boolean> {
    return this.#lists.build(buildId, signal, progress);
  }

  /** FTS5 plans a MATCH the same whatever the documents: nothing to bring up to date. */
  async settle(): Promise<void> {}

  /** Both ways run whole on a reader thread (sqlite-search-reads.ts). */
  async search(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    const words = queryWords(query);
    if (words) {
      const lists = this.#kept.lend(projectId, [...words.required.flat(), ...words.excluded]);
      const answer = await onReader(this.#database, SEARCH_BY_LISTS, { projectId, query, words, window, lists });
      if (answer.kind !== 'not-built') this.#kept.keep(projectId, answer.read);
      if (answer.kind === 'answer') return answer.window;
      if (answer.kind === 'not-built') return undefined;
    }
    return this.searchFts5(projectId, query, window);
  }

  /** The query ranked by FTS5 alone (bm25 of every match); public for the tests that compare. */
  searchFts5(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    return onReader(this.#database, SEARCH_BY_FTS5, { projectId, query, window });
  }
}
