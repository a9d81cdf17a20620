import { sql } from 'kysely';
import { now } from '../../clock.ts';
import type { Database } from '../../database/database.ts';
import { onReader, type ReaderProcedure } from '../../database/reader-procedure.ts';
import type { SealProgress } from '../search-engine.ts';
import { LIST_THRESHOLD, type WordListsOptions } from '../word-list-settings.ts';
import { CANDIDATE_WORDS, GENERATION, RANK_WORD } from './sqlite-search-reads.ts';

/**
 * How many documents' words are counted to find the common ones, spread evenly: enough that a
 * word on the threshold of pages is on some 20 of them (at least 5,000 documents, at most all).
 * The candidates are the words seen on half the threshold's share of them or more (a word of
 * the threshold falls that short about one time in two hundred, and is ranked by FTS5 then).
 */
const sampledDocuments = (documents: number, threshold: number) =>
  Math.min(documents, Math.max(5000, Math.ceil((20 * documents) / threshold)));

/**
 * The ranked match lists of a generation's common words (migration 0019): written once a
 * build's documents are, before it answers; read by queries made of single words
 * (sqlite-search-reads.ts). The ranking and sampling run on a reader thread.
 */
export class SqliteWordPostings {
  readonly #database: Database;
  readonly #threshold: number;

  constructor(database: Database, options: WordListsOptions = {}) {
    this.#database = database;
    this.#threshold = options.threshold ?? LIST_THRESHOLD;
  }

  #onReader<Input, Output>(procedure: ReaderProcedure<Input, Output>, input: Input): Promise<Output> {
    return onReader(this.#database, procedure, input);
  }

  /**
   * Stores the lists of the build's generation, once its documents are all written, telling
   * `progress` after each word; false when the signal or `progress` stopped it (run again, it
   * skips the lists stored). The scores are FTS5's bm25 as
   * the table stands then, with the generation it replaces still there: a new crawl of the same
   * site has about the same share of pages holding each word and the same mean length, which is
   * what bm25 reads of the table, so they are the scores FTS5 gives once that one is gone.
   */
  async build(buildId: string, signal: AbortSignal, progress: SealProgress): Promise<boolean> {
    const done = await sql`SELECT 1 FROM search_word_lists WHERE build_id = ${buildId}`.execute(this.#database.db);
    if (done.rows.length > 0) return true;
    const generation = await this.#onReader(GENERATION, { buildId });
    if (!generation) return true;
    const { base, documents } = generation;
    const stored = new Set(
      (await sql<{ word: string }>`SELECT word FROM search_word_postings WHERE build_id = ${buildId}`.execute(this.#database.db)).rows.map(
        (row) => row.word,
      ),
    );
    let words = stored.size;
    const candidates = await this.#onReader(CANDIDATE_WORDS, {
      base,
      documents,
      threshold: this.#threshold,
      sampled: sampledDocuments(documents, this.#threshold),
    });
    for (const word of candidates) {
      if (signal.aborted) return false;
      if (stored.has(word)) continue;
      const list = await this.#onReader(RANK_WORD, { base, word });
      if (list.matches >= this.#threshold) {
        await sql`INSERT INTO search_word_postings (build_id, word, matches, ordinals, scores)
          VALUES (${buildId}, ${word}, ${list.matches}, ${list.ordinals}, ${list.scores})
          ON CONFLICT (build_id, word) DO NOTHING`.execute(this.#database.db);
        words++;
      }
      if (!(await progress())) return false;
    }
    await sql`INSERT INTO search_word_lists (build_id, documents, threshold, words, finished_at)
      VALUES (${buildId}, ${documents}, ${this.#threshold}, ${words}, ${now()})
      ON CONFLICT (build_id) DO NOTHING`.execute(this.#database.db);
    return true;
  }
}
