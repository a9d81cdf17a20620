import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredKey } from './api-key-store.ts';
import { KEY_CACHE_MS, KeyCache } from './key-cache.ts';

const stored = (id: string): StoredKey => ({ id, workspaceId: 'w', userId: 'u', scopes: [], expiresAt: null, lastUsedAt: null, role: 'owner' });

/** A read of the database that counts its calls. */
function database(keys: Record<string, StoredKey>) {
  const reads: string[] = [];
  return { reads, read: async (hash: string) => (reads.push(hash), keys[hash]) };
}

describe('KeyCache', () => {
  it('reads a key once for the requests of KEY_CACHE_MS, then again', async () => {
    let at = 1000;
    const cache = new KeyCache({ now: () => at });
    const db = database({ h: stored('k') });
    assert.equal((await cache.find('h', db.read))?.id, 'k');
    at += KEY_CACHE_MS - 1;
    assert.equal((await cache.find('h', db.read))?.id, 'k');
    assert.equal(db.reads.length, 1);
    at += 2;
    await cache.find('h', db.read);
    assert.equal(db.reads.length, 2, 'a change made by another process is seen after KEY_CACHE_MS');
  });

  it('keeps no unknown secret: each guess reads the database', async () => {
    const cache = new KeyCache();
    const db = database({});
    assert.equal(await cache.find('guess', db.read), undefined);
    assert.equal(await cache.find('guess', db.read), undefined);
    assert.equal(db.reads.length, 2);
  });

  it('forgets every key at a change, and keeps nothing read while one happened', async () => {
    const cache = new KeyCache();
    const keys: Record<string, StoredKey> = { h: stored('k') };
    const db = database(keys);
    await cache.find('h', db.read);
    cache.forgetAll();
    delete keys.h;
    assert.equal(await cache.find('h', db.read), undefined, 'a deleted key is read again at once');

    keys.h = stored('k');
    let release!: () => void;
    const slow = async (hash: string) => {
      await new Promise<void>((resolve) => (release = resolve));
      return db.read(hash);
    };
    const pending = cache.find('h', slow);
    cache.forgetAll();
    release();
    assert.equal((await pending)?.id, 'k', 'the request under way is answered');
    const before = db.reads.length;
    await cache.find('h', db.read);
    assert.equal(db.reads.length, before + 1, 'what it read before the change was not kept');
  });
});
