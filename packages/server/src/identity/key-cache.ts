import { RecentReads } from '../database/recent-reads.ts';
import type { StoredKey } from './api-key-store.ts';

/**
 * How long a key read for one request serves the next ones. Every API request looks its key up:
 * on PostgreSQL that round trip was a third of what a trivial authenticated GET cost the server
 * and the database (bench/search.ts, its floor). A change made in this process is seen at once
 * (forgetAll); one made by another server process (several share a PostgreSQL database) is
 * seen within this long.
 */
export const KEY_CACHE_MS = 2_000;

/** Told when keys or memberships change, so that no request acts on what they were. */
export type KeysChanged = () => void;

/**
 * The keys authentication read lately, by the hash of their secret (database/recent-reads.ts):
 * unknown secrets are not kept, only keys that exist, for KEY_CACHE_MS.
 */
export class KeyCache {
  readonly #keys: RecentReads<string, StoredKey>;

  /** `clock` in milliseconds: tests move it. */
  constructor(clock: { now(): number } = performance) {
    this.#keys = new RecentReads({ max: 10_000, ttl: KEY_CACHE_MS, clock });
  }

  async find(secretHash: string, read: (secretHash: string) => Promise<StoredKey | undefined>): Promise<StoredKey | undefined> {
    return (await this.#keys.find(secretHash, read))?.row;
  }

  /** A key was deleted, or a member's role changed or their membership ended. */
  readonly forgetAll: KeysChanged = () => this.#keys.forgetAll();
}
