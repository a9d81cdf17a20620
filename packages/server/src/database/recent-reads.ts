import { LRUCache } from 'lru-cache';

export interface RecentReadsOptions {
  /** How long a read serves the requests after it (ms): what another server process changes is seen within it. */
  ttl: number;
  /** Reads kept at most, the least used going first. */
  max: number;
  /** In milliseconds: tests move it. */
  clock?: { now(): number };
}

/**
 * Rows read for one request that serve the next ones for a short while, where a round trip on
 * every request counts under load (API keys, a project's ready search build). A change made in
 * this process is seen at once (forget, forgetAll); one made by another process sharing the
 * database within the ttl. What does not exist is not kept (a guesser would fill the cache), and a
 * read under way when a change comes answers its request but is not kept.
 */
export class RecentReads<Key extends {}, Row extends {}> {
  readonly #rows: LRUCache<Key, Row>;
  /** Counts the changes: a read under way across one is not kept. */
  #changes = 0;

  constructor(options: RecentReadsOptions) {
    this.#rows = new LRUCache({ max: options.max, ttl: options.ttl, ttlResolution: 0, perf: options.clock ?? performance });
  }

  /** The row, kept or read; `kept` says it came from an earlier read. */
  async find(key: Key, read: (key: Key) => Promise<Row | undefined>): Promise<{ row: Row; kept: boolean } | undefined> {
    const kept = this.#rows.get(key);
    if (kept) return { row: kept, kept: true };
    const changes = this.#changes;
    const row = await read(key);
    if (row && changes === this.#changes) this.#rows.set(key, row);
    return row && { row, kept: false };
  }

  /** The row of `key` changed (or went): the next find reads it. */
  forget(key: Key): void {
    this.#changes++;
    this.#rows.delete(key);
  }

  forgetAll(): void {
    this.#changes++;
    this.#rows.clear();
  }
}
