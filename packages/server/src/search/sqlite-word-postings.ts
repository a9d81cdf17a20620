import { sql } from 'kysely';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import { decodeOrdinals, decodeScores, encodeOrdinals, encodeScores, type PostingList } from './posting-list.ts';
import { wordKeysOf } from './search-words.ts';

/** A generation's rowids are its number times this, plus its ordinals (migration 0014). */
const SPAN = 4294967296;

/**
 * A rowid bound as an integer. node:sqlite binds every JavaScript number as a real, and FTS5
 * compares its rowid with a real wrongly: `rowid = 2.0` matched the row of rowid 1.
 */
const rowid = (value: number) => sql`CAST(${value} AS INTEGER)`;

/**
 * The fewest matches a word needs for a list of its own. Below it FTS5 ranks a word's matches
 * in under a millisecond; above it, a list saves that much and more (a word on most of 50,000
 * pages: 40 ms).
 */
export const LIST_THRESHOLD = 1000;

/**
 * Documents whose words are counted to find the common ones. A word on 1,000 of 50,000 pages
 * is on some 100 of 5,000 sampled (one in ten), and the candidates are the words seen on half
 * the threshold's share or more: a word of the threshold falls that short almost never.
 */
const SAMPLED_DOCUMENTS = 5000;
/** Documents read per sampling query. */
const SAMPLE_BATCH = 100;

export interface WordListsOptions {
  /** Tests lower it to give a small site's words lists. */
  threshold?: number;
}

/** A generation's lists as a query reads them: the ready build, its base rowid, and the lists found. */
export interface ReadyLists {
  buildId: string;
  reportId: string;
  /** The generation's first rowid: a document's rowid is this plus its ordinal. */
  base: number;
  /** Undefined while the build's lists are not complete: the query goes to FTS5. */
  threshold: number | undefined;
  lists: Map<string, PostingList>;
}

/**
 * The ranked match lists of a generation's common words (migration 0019): written once a
 * build's documents are, before it answers; read by queries made of single words.
 */
export class SqliteWordPostings {
  readonly #database: Database;
  readonly #threshold: number;

  constructor(database: Database, options: WordListsOptions = {}) {
    this.#database = database;
    this.#threshold = options.threshold ?? LIST_THRESHOLD;
  }

  /**
   * Stores the lists of the build's generation, once its documents are all written; false when
   * the signal stopped it (run again, it skips the lists stored). The scores are FTS5's bm25 as
   * the table stands then, with the generation it replaces still there: a new crawl of the same
   * site has about the same share of pages holding each word and the same mean length, which is
   * what bm25 reads of the table, so they are the scores FTS5 gives once that one is gone.
   */
  async build(buildId: string, signal: AbortSignal): Promise<boolean> {
    const done = await sql`SELECT 1 FROM search_word_lists WHERE build_id = ${buildId}`.execute(this.#database.db);
    if (done.rows.length > 0) return true;
    const generation = await this.#generation(buildId);
    if (!generation) return true;
    const { base, documents } = generation;
    const stored = new Set(
      (await sql<{ word: string }>`SELECT word FROM search_word_postings WHERE build_id = ${buildId}`.execute(this.#database.db)).rows.map((row) => row.word),
    );
    let words = stored.size;
    for (const word of await this.#candidates(base, documents)) {
      if (signal.aborted) return false;
      if (stored.has(word)) continue;
      const list = await this.ranked(base, word);
      if (list.ordinals.length < this.#threshold) continue;
      await sql`INSERT INTO search_word_postings (build_id, word, matches, ordinals, scores)
        VALUES (${buildId}, ${word}, ${list.ordinals.length}, ${encodeOrdinals(list.ordinals)}, ${encodeScores(list.scores)})
        ON CONFLICT (build_id, word) DO NOTHING`.execute(this.#database.db);
      words++;
    }
    await sql`INSERT INTO search_word_lists (build_id, documents, threshold, words, finished_at)
      VALUES (${buildId}, ${documents}, ${this.#threshold}, ${words}, ${now()})
      ON CONFLICT (build_id) DO NOTHING`.execute(this.#database.db);
    return true;
  }

  /** The project's ready build and the stored lists of `words` in it; undefined without a ready build. */
  async read(projectId: string, words: readonly string[]): Promise<ReadyLists | undefined> {
    const rows = await this.#database.read(
      sql<{ build_id: string; report_id: string; number: number; threshold: number | null; word: string | null; matches: number | null; ordinals: Uint8Array | null; scores: Uint8Array | null }>`
        WITH current AS (
          SELECT b.id, b.report_id, g.number, l.threshold
          FROM search_builds b JOIN search_generations g ON g.build_id = b.id
          LEFT JOIN search_word_lists l ON l.build_id = b.id
          WHERE b.project_id = ${projectId} AND b.state = 'ready'
        )
        SELECT current.id AS build_id, current.report_id, current.number, current.threshold, p.word, p.matches, p.ordinals, p.scores
        FROM current LEFT JOIN search_word_postings p
          ON current.threshold IS NOT NULL AND p.build_id = current.id AND p.word IN (SELECT value FROM json_each(${JSON.stringify(words)}))
      `.compile(this.#database.db),
    );
    if (rows.length === 0) return undefined;
    const lists = new Map<string, PostingList>();
    for (const row of rows) {
      if (row.word === null || row.matches === null || !row.ordinals || !row.scores) continue;
      lists.set(row.word, { ordinals: decodeOrdinals(row.ordinals, row.matches), scores: decodeScores(row.scores, row.matches) });
    }
    const [first] = rows;
    return { buildId: first.build_id, reportId: first.report_id, base: first.number * SPAN, threshold: first.threshold ?? undefined, lists };
  }

  /** The ordinals of a word's matches in the generation, unranked (an excluded word). */
  async matching(base: number, word: string): Promise<Uint32Array> {
    return (await this.#matches(base, word, false)).ordinals;
  }

  /** A word's matches in the generation and their bm25 scores, ranked by FTS5 now (a word without a stored list). */
  ranked(base: number, word: string): Promise<PostingList> {
    return this.#matches(base, word, true) as Promise<PostingList>;
  }

  /** Rows of two numbers: FTS5 reads them out faster than it formats a real as text for group_concat. */
  async #matches(base: number, word: string, ranked: boolean): Promise<{ ordinals: Uint32Array; scores?: Float32Array }> {
    const rows = await this.#database.read(
      sql<{ ordinal: number; score: number | null }>`
        SELECT rowid - ${base} AS ordinal, ${ranked ? sql`-rank` : sql`NULL`} AS score FROM search_documents
        WHERE search_documents MATCH ${`"${word}"`} AND rowid BETWEEN ${rowid(base)} AND ${rowid(base + SPAN - 1)}
        ORDER BY rowid
      `.compile(this.#database.db),
    );
    const ordinals = Uint32Array.from(rows, (row) => row.ordinal);
    if (!ranked) return { ordinals };
    return { ordinals, scores: Float32Array.from(rows, (row) => row.score ?? 0) };
  }

  async #generation(buildId: string): Promise<{ base: number; documents: number } | undefined> {
    const { rows } = await sql<{ number: number }>`SELECT number FROM search_generations WHERE build_id = ${buildId}`.execute(this.#database.db);
    if (rows.length === 0) return undefined;
    const base = rows[0].number * SPAN;
    const [last] = await this.#database.read(
      sql<{ last: number | null }>`SELECT max(rowid) AS last FROM search_documents WHERE rowid BETWEEN ${rowid(base)} AND ${rowid(base + SPAN - 1)}`.compile(this.#database.db),
    );
    return { base, documents: last?.last === null || last?.last === undefined ? 0 : last.last - base + 1 };
  }

  /**
   * The words likely on `threshold` documents or more, from the words of an evenly spread
   * sample; each is then ranked and kept only if it is.
   */
  async #candidates(base: number, documents: number): Promise<string[]> {
    if (documents < this.#threshold) return [];
    const step = Math.max(1, Math.floor(documents / SAMPLED_DOCUMENTS));
    const sampled = Math.ceil(documents / step);
    const seen = new Map<string, number>();
    for (let first = 0; first < documents; first += step * SAMPLE_BATCH) {
      const ordinals: number[] = [];
      for (let ordinal = first; ordinal < Math.min(documents, first + step * SAMPLE_BATCH); ordinal += step) ordinals.push(base + ordinal);
      const rows = await this.#database.read(
        sql<{ title: string | null; body: string }>`
          SELECT d.title, d.body FROM json_each(${JSON.stringify(ordinals)}) AS wanted
          CROSS JOIN search_documents d WHERE d.rowid = wanted.value
        `.compile(this.#database.db),
      );
      for (const row of rows) {
        for (const word of wordKeysOf(`${row.title ?? ''} ${row.body}`)) seen.set(word, (seen.get(word) ?? 0) + 1);
      }
    }
    const least = (this.#threshold / documents) * sampled * 0.5;
    return [...seen].filter(([, count]) => count >= least).map(([word]) => word).sort();
  }
}
