import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredKey } from './api-key-store.ts';
import { KEY_CACHE_MS, KeyCache } from './key-cache.ts';

const stored = (id: string): StoredKey => ({
  id,
  workspaceId: 'w',
  userId: 'u',
  scopes: [],
  expiresAt: null,
  lastUsedAt: null,
  role: 'owner',
});

// What it keeps and when it reads again is RecentReads' (database/recent-reads.test.ts).
describe('KeyCache', () => {
  it('reads a key once for the requests of KEY_CACHE_MS, and at once after a change', async () => {
    let at = 1000;
    const cache = new KeyCache({ now: () => at });
    const keys: Record<string, StoredKey> = { h: stored('k') };
    const reads: string[] = [];
    const read = async (hash: string) => (reads.push(hash), keys[hash]);
    assert.equal((await cache.find('h', read))?.id, 'k');
    at += KEY_CACHE_MS - 1;
    assert.equal((await cache.find('h', read))?.id, 'k');
    assert.equal(reads.length, 1);
    at += 2;
    await cache.find('h', read);
    assert.equal(reads.length, 2, 'a change made by another process is seen after KEY_CACHE_MS');
    cache.forgetAll();
    delete keys.h;
    assert.equal(await cache.find('h', read), undefined, 'a deleted key is read again at once');
  });
});
