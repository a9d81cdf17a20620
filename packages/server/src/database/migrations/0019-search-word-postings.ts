import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Ranked match lists of a generation's common words, on SQLite (search/sqlite-word-postings.ts).
 * FTS5 computes bm25 for every match of a query before it can keep the best ten: some 0.8 µs
 * a match, 40 ms for a word on most of 50,000 pages. A build therefore stores, once, each
 * common word's matches in document order with their bm25 score, and queries made of such
 * words add up those lists instead (bm25 is a sum over the query's phrases).
 *
 * PostgreSQL ranks in SQL as before: ts_rank of several words is not a sum of one-word ranks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // One row per build whose lists are complete, written after the last list: queries use a
  // build's lists only once it is there.
  await sql`CREATE TABLE search_word_lists (
    build_id TEXT PRIMARY KEY REFERENCES search_builds(id) ON DELETE CASCADE,
    -- The generation's documents: its ordinals run from 0 to this − 1.
    documents INTEGER NOT NULL,
    -- The fewest matches a word has to have a list of its own.
    threshold INTEGER NOT NULL,
    words INTEGER NOT NULL,
    finished_at TEXT NOT NULL
  )`.execute(db);
  // A word as typed (lower case, without diacritics), its matches' ordinals (rowid less the
  // generation's base) as ascending varint deltas, and their scores as little-endian float32.
  await sql`CREATE TABLE search_word_postings (
    build_id TEXT NOT NULL REFERENCES search_builds(id) ON DELETE CASCADE,
    word TEXT NOT NULL,
    matches INTEGER NOT NULL,
    ordinals BLOB NOT NULL,
    scores BLOB NOT NULL,
    PRIMARY KEY (build_id, word)
  )`.execute(db);
}
