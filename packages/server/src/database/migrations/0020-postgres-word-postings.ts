import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Word lists on PostgreSQL (search/postgres-word-postings.ts), as 0019 made them for SQLite:
 * ranking a common word read the tsvector of every match (34,000 of them at 50,000 pages:
 * hundreds of milliseconds a query). A build now stores, per word on enough pages, its matches'
 * ordinals and positions, from which ts_rank is computed as PostgreSQL computes it
 * (search/ts-rank.ts), for any query of words and phrases.
 *
 * SQLite keeps its own tables of 0019; nothing here touches them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // A document's place in its generation, 0, 1, 2… in the order the build wrote the pages
  // (their ids): the lists name documents by it. Null in generations built before.
  await sql`ALTER TABLE search_documents ADD COLUMN ordinal integer`.execute(db);
  // Led by build_id, which 0014 avoided lest the planner read a whole generation to test every
  // tsvector: the SQL ranking no longer names the build where it matches (it probes the best
  // matches by ctid), so the index serves only the lists' reads and a generation's removal.
  await sql`CREATE INDEX search_documents_ordinal ON search_documents (build_id, ordinal)`.execute(db);
  // One row per build whose lists are complete, written after the last block: queries use a
  // build's lists only once it is there.
  await sql`CREATE TABLE search_word_lists (
    build_id text PRIMARY KEY REFERENCES search_builds(id) ON DELETE CASCADE,
    documents integer NOT NULL,
    threshold integer NOT NULL,
    words integer NOT NULL,
    finished_at text NOT NULL
  )`.execute(db);
  // The lists are written a block of documents at a time (bounded memory, and a stopped build
  // goes on after its last block). Per block, what ranking reads of every document: its count
  // of positions (ts_rank's length) and its title's last position (snippets), as little-endian
  // uint32 and uint16 arrays.
  await sql`CREATE TABLE search_list_blocks (
    build_id text NOT NULL REFERENCES search_builds(id) ON DELETE CASCADE,
    block integer NOT NULL,
    lengths bytea NOT NULL,
    title_ends bytea NOT NULL,
    PRIMARY KEY (build_id, block)
  )`.execute(db);
  // A lexeme's matches in one block: ordinals as ascending varint deltas, and each match's
  // positions (search/positional-list.ts).
  await sql`CREATE TABLE search_word_postings (
    build_id text NOT NULL REFERENCES search_builds(id) ON DELETE CASCADE,
    word text NOT NULL,
    block integer NOT NULL,
    matches integer NOT NULL,
    ordinals bytea NOT NULL,
    positions bytea NOT NULL,
    PRIMARY KEY (build_id, word, block)
  )`.execute(db);
}
