import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { now } from '../../clock.ts';
import { compiledOnce } from '../../database/compiled-query.ts';
import { type Database, inTransaction } from '../../database/database.ts';
import { decodePositionalList, type PositionalList, PositionalListWriter, sizeOfList } from '../postings/positional-list.ts';
import type { GenerationStats } from '../postings/positional-ranking.ts';
import type { SealProgress } from '../search-engine.ts';
import { LIST_CACHE_BYTES, LIST_THRESHOLD, type WordListsOptions } from '../word-list-settings.ts';
import { forEachLexeme } from './tsvector-text.ts';

/** Documents a block of lists covers: what a build holds in memory at once (some 3 million matches at most). */
export const BLOCK = 8192;

/** Documents read (as tsvector text) per statement while the lists are made. */
const READ = 500;

/** A build's lists at hand: what ranking reads of every document. */
export interface BuildLists {
  reportId: string;
  threshold: number;
  stats: GenerationStats;
}

/**
 * The word lists of PostgreSQL's generations (migration 0020): made once a build's documents
 * are written, before it answers, from the documents' own tsvectors; read by queries, which
 * rank them as ts_rank would (postings/positional-ranking.ts). A generation's lists never change (a
 * rebuild writes its own under its build id), so what is read is kept, decoded, until it is
 * not used (LIST_CACHE_BYTES of lists per process, unless the options say otherwise).
 */
export class PostgresWordPostings {
  readonly #database: Database;
  readonly #threshold: number;
  readonly #builds: LRUCache<string, BuildLists | false>;
  readonly #lists: LRUCache<string, PositionalList | false>;
  readonly #listBlocks;

  constructor(database: Database, options: WordListsOptions = {}) {
    this.#database = database;
    this.#threshold = options.threshold ?? LIST_THRESHOLD;
    this.#builds = new LRUCache<string, BuildLists | false>({ max: 64, fetchMethod: (buildId) => this.#readBuild(buildId) });
    this.#lists = new LRUCache<string, PositionalList | false>({
      maxSize: options.cacheBytes ?? LIST_CACHE_BYTES,
      sizeCalculation: (list) => (list ? sizeOfList(list) : 64),
      fetchMethod: (key) => this.#readList(key),
    });
    this.#listBlocks = compiledOnce(() =>
      sql<{ matches: number; ordinals: Uint8Array; positions: Uint8Array }>`
        SELECT matches, ordinals, positions FROM search_word_postings WHERE build_id = ${''} AND word = ${''} ORDER BY block`.compile(
        database.db,
      ),
    );
  }

  /** The build's lists, or undefined when it has none (built before them, or not sealed yet). */
  async lists(buildId: string): Promise<BuildLists | undefined> {
    return (await this.#builds.fetch(buildId)) || undefined;
  }

  /** The lexemes' lists in the build; a lexeme on fewer documents than the threshold has none. */
  async listsOf(buildId: string, lexemes: readonly string[]): Promise<Map<string, PositionalList | undefined>> {
    const lists = await Promise.all(lexemes.map((lexeme) => this.#lists.fetch(`${buildId} ${lexeme}`)));
    return new Map(lexemes.map((lexeme, i) => [lexeme, lists[i] || undefined]));
  }

  async #readBuild(buildId: string): Promise<BuildLists | false> {
    const { rows } = await sql<{ documents: number; threshold: number; report_id: string }>`
      SELECT l.documents, l.threshold, b.report_id FROM search_word_lists l JOIN search_builds b ON b.id = l.build_id
      WHERE l.build_id = ${buildId}`.execute(this.#database.db);
    if (rows.length === 0) return false;
    const blocks = await sql<{ lengths: Uint8Array }>`
      SELECT lengths FROM search_list_blocks WHERE build_id = ${buildId} ORDER BY block`.execute(this.#database.db);
    const documents = rows[0].documents;
    // In memory the ranking threads share, as the lists are.
    const stats = { lengths: new Uint32Array(new SharedArrayBuffer(documents * 4)) };
    let at = 0;
    for (const block of blocks.rows) {
      const lengths = littleEndianUint32(block.lengths);
      stats.lengths.set(lengths, at);
      at += lengths.length;
    }
    return { reportId: rows[0].report_id, threshold: rows[0].threshold, stats };
  }

  async #readList(key: string): Promise<PositionalList | false> {
    const space = key.indexOf(' ');
    const { rows } = await this.#database.db.executeQuery(this.#listBlocks(key.slice(0, space), key.slice(space + 1)));
    return rows.length === 0 ? false : decodePositionalList(rows);
  }

  /**
   * Makes the build's lists, once its documents are all written: the lexemes on `threshold`
   * documents or more (ts_stat), then a block of documents at a time, their tsvectors read in
   * ordinal order and each listed lexeme's matches stored with the block's document stats, in
   * one transaction a block, `progress` told after each. False when the signal or `progress`
   * stopped it; run again, it goes on after the last block stored.
   */
  async build(buildId: string, signal: AbortSignal, progress: SealProgress): Promise<boolean> {
    const db = this.#database.db;
    const done = await sql`SELECT 1 FROM search_word_lists WHERE build_id = ${buildId}`.execute(db);
    if (done.rows.length > 0) return true;
    const { rows: counted } = await sql<{ documents: number | null }>`
      SELECT max(ordinal) + 1 AS documents FROM search_documents WHERE build_id = ${buildId}`.execute(db);
    const documents = counted[0]?.documents ?? 0;
    const { rows: listed } = await sql<{ word: string }>`
      SELECT word FROM ts_stat(format('SELECT document FROM search_documents WHERE build_id = %L', ${buildId}::text))
      WHERE ndoc >= ${this.#threshold}`.execute(db);
    const words = new Set(listed.map((row) => row.word));
    const { rows: stored } = await sql<{ next: number | null }>`
      SELECT max(block) + 1 AS next FROM search_list_blocks WHERE build_id = ${buildId}`.execute(db);
    for (let block = stored[0]?.next ?? 0; block * BLOCK < documents; block++) {
      if (signal.aborted) return false;
      await this.#writeBlock(buildId, block, Math.min(BLOCK, documents - block * BLOCK), words);
      if (!(await progress())) return false;
    }
    await sql`INSERT INTO search_word_lists (build_id, documents, threshold, words, finished_at)
      VALUES (${buildId}, ${documents}, ${this.#threshold}, ${words.size}, ${now()})
      ON CONFLICT (build_id) DO NOTHING`.execute(db);
    return true;
  }

  async #writeBlock(buildId: string, block: number, size: number, words: ReadonlySet<string>): Promise<void> {
    const first = block * BLOCK;
    const lengths = new Uint32Array(size);
    const writers = new Map<string, PositionalListWriter>();
    for (let from = first; from < first + size; from += READ) {
      const { rows } = await sql<{ ordinal: number; document: string }>`
        SELECT ordinal, document::text AS document FROM search_documents
        WHERE build_id = ${buildId} AND ordinal >= ${from} AND ordinal < ${Math.min(from + READ, first + size)} ORDER BY ordinal`.execute(
        this.#database.db,
      );
      for (const row of rows) {
        let length = 0;
        forEachLexeme(row.document, (lexeme, positions) => {
          length += Math.max(1, positions.length);
          if (!words.has(lexeme)) return;
          let writer = writers.get(lexeme);
          if (!writer) writers.set(lexeme, (writer = new PositionalListWriter()));
          writer.add(row.ordinal, positions);
        });
        lengths[row.ordinal - first] = length;
      }
    }
    const encoded = [...writers].map(([word, writer]) => ({ word, matches: writer.matches, ...writer.encode() }));
    await inTransaction(this.#database, async ({ db }) => {
      for (let start = 0; start < encoded.length; start += 1000) {
        const rows = encoded.slice(start, start + 1000);
        await sql`INSERT INTO search_word_postings (build_id, word, block, matches, ordinals, positions)
          SELECT ${buildId}, w.word, ${block}, w.matches, w.ordinals, w.positions
          FROM unnest(${rows.map((r) => r.word)}::text[], ${rows.map((r) => r.matches)}::int[],
            ${rows.map((r) => asBuffer(r.ordinals))}::bytea[], ${rows.map((r) => asBuffer(r.positions))}::bytea[]) AS w(word, matches, ordinals, positions)
          ON CONFLICT DO NOTHING`.execute(db);
      }
      await sql`INSERT INTO search_list_blocks (build_id, block, lengths)
        VALUES (${buildId}, ${block}, ${asBuffer(new Uint8Array(lengths.buffer))})`.execute(db);
    });
  }
}

/** node-pg writes a Buffer as bytea, in an array too. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Numbers stored in the platform's byte order (little-endian wherever Node runs here), copied so they start on a 4-byte bound. */
function littleEndianUint32(bytes: Uint8Array): Uint32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Uint32Array(copy.buffer);
}
