import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { VariantCache, type VariantCacheOptions } from './variant-cache.ts';

const MiB = 1024 * 1024;

/** Distinct, recognisable bytes for each key. */
function bytesFor(key: string, length = 1000): Buffer {
  return Buffer.alloc(length, key);
}

function producing(key: string, length = 1000): () => Promise<{ data: Buffer; contentType: string }> {
  return async () => ({ data: bytesFor(key, length), contentType: 'image/webp' });
}

/** A promise with its resolve and reject at hand, so a test decides when `produce` finishes. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every variant file below the cache directory (the layout is the cache's business). */
async function cacheFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('VariantCache', () => {
  let directory: string;
  const opened: VariantCache[] = [];

  async function openCache(options: Partial<VariantCacheOptions> = {}): Promise<VariantCache> {
    const cache = new VariantCache({ directory, maxDiskBytes: 10 * MiB, maxMemoryBytes: MiB, ...options });
    await cache.open();
    opened.push(cache);
    return cache;
  }

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'loupe-variant-cache-'));
  });

  afterEach(async () => {
    for (const cache of opened.splice(0)) await cache.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('misses, computes, then serves the variant from memory', async () => {
    const cache = await openCache();
    assert.equal(await cache.get('a|w=100|webp'), undefined);

    const first = await cache.getOrCreate('a|w=100|webp', producing('a'));
    assert.equal(first.source, 'computed');
    assert.deepEqual(first.variant.data, bytesFor('a'));
    assert.equal(first.variant.contentType, 'image/webp');

    const second = await cache.getOrCreate('a|w=100|webp', producing('other'));
    assert.equal(second.source, 'memory');
    assert.deepEqual(second.variant.data, bytesFor('a'));
    assert.equal((await cache.get('a|w=100|webp'))?.tier, 'memory');
  });

  it('serves from disk after a restart, then from memory', async () => {
    const before = await openCache();
    await before.getOrCreate('a|w=100|webp', producing('a'));
    await before.close();

    const after = await openCache();
    assert.deepEqual(after.stats().diskEntries, 1);
    const fromDisk = await after.get('a|w=100|webp');
    assert.equal(fromDisk?.tier, 'disk');
    assert.deepEqual(fromDisk.variant.data, bytesFor('a'));
    assert.equal(fromDisk.variant.contentType, 'image/webp');
    assert.equal((await after.get('a|w=100|webp'))?.tier, 'memory');
  });

  it('runs produce once for 100 concurrent requests of one key', async () => {
    const cache = await openCache();
    const gate = deferred<void>();
    let calls = 0;
    const produce = async () => {
      calls += 1;
      await gate.promise;
      return { data: bytesFor('a'), contentType: 'image/avif' };
    };

    const answers = Array.from({ length: 100 }, () => cache.getOrCreate('a|w=100|avif', produce));
    gate.resolve();
    const results = await Promise.all(answers);

    assert.equal(calls, 1);
    assert.equal(results.filter((result) => result.source === 'computed').length, 1);
    assert.equal(results.filter((result) => result.source === 'joined').length, 99);
    for (const result of results) assert.deepEqual(result.variant.data, bytesFor('a'));
    assert.equal((await cache.getOrCreate('a|w=100|avif', produce)).source, 'memory');
    assert.equal(calls, 1);
  });

  it('rejects every joined request when produce fails, caches nothing, and retries on the next call', async () => {
    const cache = await openCache();
    const gate = deferred<{ data: Buffer; contentType: string }>();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return gate.promise;
    };
    const failure = new Error('decode failed');

    const answers = Array.from({ length: 10 }, () => cache.getOrCreate('a|w=100|webp', failing));
    gate.reject(failure);
    const outcomes = await Promise.allSettled(answers);

    assert.equal(calls, 1);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.equal(outcome.reason, failure);
    }
    assert.deepEqual(cache.stats(), { memoryBytes: 0, diskBytes: 0, memoryEntries: 0, diskEntries: 0 });

    const retried = await cache.getOrCreate('a|w=100|webp', producing('a'));
    assert.equal(retried.source, 'computed');
  });

  it('evicts the least recently used variant from disk when over the bound', async () => {
    // No memory tier, so every hit is a disk hit; each file is ~1060 bytes, so three fit.
    const cache = await openCache({ maxDiskBytes: 3500, maxMemoryBytes: 0 });
    for (const key of ['a', 'b', 'c']) await cache.getOrCreate(key, producing(key));
    assert.equal((await cache.get('a'))?.tier, 'disk');

    await cache.getOrCreate('d', producing('d'));

    assert.equal(await cache.get('b'), undefined);
    for (const key of ['a', 'c', 'd']) assert.equal((await cache.get(key))?.tier, 'disk', key);
    const { diskBytes, diskEntries } = cache.stats();
    assert.equal(diskEntries, 3);
    assert.ok(diskBytes <= 3500, `${diskBytes} bytes on disk`);
    await cache.close();
    assert.equal((await cacheFiles(directory)).length, 3);
  });

  it('keeps hot variants on disk even when they are served from memory', async () => {
    const cache = await openCache({ maxDiskBytes: 3500 });
    for (const key of ['a', 'b', 'c']) await cache.getOrCreate(key, producing(key));
    assert.equal((await cache.get('a'))?.tier, 'memory');

    await cache.getOrCreate('d', producing('d'));
    await cache.close();

    const after = await openCache({ maxDiskBytes: 3500 });
    assert.equal(await after.get('b'), undefined);
    assert.equal((await after.get('a'))?.tier, 'disk');
  });

  it('orders the disk index by file time after a restart', async () => {
    const before = await openCache();
    for (const key of ['a', 'b', 'c']) await before.getOrCreate(key, producing(key));
    await before.close();
    // Make 'a' the most recently used and 'b' the oldest, whatever order they were written in.
    const seconds: Record<string, number> = { a: 3_000, b: 1_000, c: 2_000 };
    for (const path of await cacheFiles(directory)) {
      const bytes = await readFile(path);
      const key = String.fromCharCode(bytes[bytes.length - 1]);
      await utimes(path, seconds[key], seconds[key]);
    }

    const after = await openCache({ maxDiskBytes: 3500, maxMemoryBytes: 0 });
    await after.getOrCreate('d', producing('d'));

    assert.equal(await after.get('b'), undefined);
    for (const key of ['a', 'c', 'd']) assert.ok(await after.get(key), key);
  });

  it('keeps the memory tier within its bound and never holds a variant larger than it', async () => {
    const cache = await openCache({ maxMemoryBytes: 2500 });
    for (const key of ['a', 'b', 'c']) await cache.getOrCreate(key, producing(key));
    assert.ok(cache.stats().memoryBytes <= 2500);
    assert.equal(cache.stats().memoryEntries, 2);
    assert.equal((await cache.get('a'))?.tier, 'disk');

    const large = await cache.getOrCreate('large', producing('large', 3000));
    assert.equal(large.source, 'computed');
    assert.equal((await cache.get('large'))?.tier, 'disk');
    assert.ok(cache.stats().memoryBytes <= 2500);
  });

  it('does not write a variant larger than the disk bound, but still answers with it', async () => {
    const cache = await openCache({ maxDiskBytes: 500, maxMemoryBytes: 0 });
    const result = await cache.getOrCreate('a', producing('a'));
    assert.equal(result.source, 'computed');
    assert.deepEqual(result.variant.data, bytesFor('a'));
    assert.equal(cache.stats().diskEntries, 0);
    assert.equal(await cache.get('a'), undefined);
  });

  it('answers with the variant when the disk write fails', async () => {
    const cache = await openCache({ maxMemoryBytes: 0 });
    await rm(directory, { recursive: true });
    await writeFile(directory, 'not a directory');

    const result = await cache.getOrCreate('a', producing('a'));
    assert.equal(result.source, 'computed');
    assert.deepEqual(result.variant.data, bytesFor('a'));
    assert.deepEqual(cache.stats(), { memoryBytes: 0, diskBytes: 0, memoryEntries: 0, diskEntries: 0 });
  });

  it('purges the variants of one prefix from both tiers and keeps the others', async () => {
    const cache = await openCache();
    for (const key of ['img1|w=100|webp', 'img1|w=200|webp', 'img2|w=100|webp']) {
      await cache.getOrCreate(key, producing(key));
    }

    assert.equal((await cacheFiles(directory)).length, 3);
    const diskBefore = cache.stats().diskBytes;

    const result = await cache.purgePrefix('img1|');
    assert.equal(result.variants, 2);
    assert.equal(result.bytes, diskBefore - cache.stats().diskBytes);
    assert.deepEqual(await cache.purgePrefix('img1|'), { variants: 0, bytes: 0 });

    assert.equal(await cache.get('img1|w=100|webp'), undefined);
    assert.equal(await cache.get('img1|w=200|webp'), undefined);
    assert.equal((await cache.get('img2|w=100|webp'))?.tier, 'memory');
    assert.equal(cache.stats().diskEntries, 1);
    assert.equal((await cacheFiles(directory)).length, 1);
  });

  it('stores nothing from a computation a purge overtook, and does not let later callers join it', async () => {
    const cache = await openCache();
    const started = deferred<void>();
    const release = deferred<void>();
    const stale = cache.getOrCreate('img1|w=100|webp', async () => {
      started.resolve();
      await release.promise;
      return { data: bytesFor('old'), contentType: 'image/webp' };
    });
    await started.promise;

    assert.deepEqual(await cache.purgePrefix('img1|'), { variants: 0, bytes: 0 });
    const fresh = await cache.getOrCreate('img1|w=100|webp', producing('new'));
    release.resolve();

    assert.equal(fresh.source, 'computed');
    assert.deepEqual((await stale).variant.data, bytesFor('old'));
    const cached = await cache.get('img1|w=100|webp');
    assert.deepEqual(cached?.variant.data, bytesFor('new'));
    assert.equal(cached?.variant.etag, fresh.variant.etag);
    assert.notEqual(fresh.variant.etag, (await stale).variant.etag);
    assert.equal((await cacheFiles(directory)).length, 1);
  });

  it('gives a strong ETag that is the same for the same key across restarts', async () => {
    const before = await openCache();
    const { etag } = (await before.getOrCreate('a|w=100|webp', producing('a'))).variant;
    const other = (await before.getOrCreate('b|w=100|webp', producing('b'))).variant.etag;
    await before.close();

    assert.match(etag, /^"[^"]+"$/);
    assert.notEqual(etag, other);
    const after = await openCache();
    assert.equal((await after.get('a|w=100|webp'))?.variant.etag, etag);
    const elsewhere = await mkdtemp(join(tmpdir(), 'loupe-variant-cache-'));
    try {
      const recomputed = await openCache({ directory: elsewhere });
      assert.equal((await recomputed.getOrCreate('a|w=100|webp', producing('a'))).variant.etag, etag);
      await recomputed.close();
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('treats a corrupted file as a miss and computes again', async () => {
    const before = await openCache();
    await before.getOrCreate('a', producing('a'));
    await before.close();
    const [path] = await cacheFiles(directory);
    const bytes = await readFile(path);
    bytes[bytes.length - 1] ^= 0xff;
    await writeFile(path, bytes);

    const after = await openCache();
    assert.equal(await after.get('a'), undefined);
    const again = await after.getOrCreate('a', producing('a'));
    assert.equal(again.source, 'computed');
    assert.deepEqual(again.variant.data, bytesFor('a'));
  });

  it('treats a truncated file as a miss, whether found at start or later', async () => {
    const before = await openCache();
    await before.getOrCreate('a', producing('a'));
    await before.getOrCreate('b', producing('b'));
    await before.close();
    const files = await cacheFiles(directory);
    await truncate(files[0], 500);

    const after = await openCache({ maxMemoryBytes: 0 });
    assert.equal(after.stats().diskEntries, 1);
    await truncate((await cacheFiles(directory))[0], 500);
    assert.equal(await after.get('a'), undefined);
    assert.equal(await after.get('b'), undefined);
    assert.equal(after.stats().diskEntries, 0);
  });

  it('removes temporary files left by an interrupted write', async () => {
    const before = await openCache();
    await before.getOrCreate('a', producing('a'));
    await before.close();
    const [path] = await cacheFiles(directory);
    await writeFile(`${path}.0123456789ab.tmp`, 'half a variant');

    const after = await openCache();
    assert.equal(after.stats().diskEntries, 1);
    assert.deepEqual(await cacheFiles(directory), [path]);
  });

  it('gives its least recently used variants back when asked for disk space', async () => {
    const cache = await openCache({ maxMemoryBytes: 0 });
    for (const key of ['a', 'b', 'c']) await cache.getOrCreate(key, producing(key));
    const size = cache.stats().diskBytes / 3;
    assert.equal(await cache.evict(size + 1), 2 * size, 'whole variants, oldest first');
    assert.equal(await cache.get('a'), undefined);
    assert.equal(await cache.get('b'), undefined);
    assert.equal((await cache.get('c'))?.tier, 'disk');
    assert.equal((await cacheFiles(directory)).length, 1, 'their files are gone when it resolves');
  });

  it('makes room for a new variant on a filling disk from its oldest ones', async () => {
    let spare = 10 * MiB;
    const cache = await openCache({ maxMemoryBytes: 0, spareBytes: async () => spare });
    await cache.getOrCreate('a', producing('a'));
    await cache.getOrCreate('b', producing('b'));
    spare = 0;
    await cache.getOrCreate('c', producing('c'));
    assert.equal(await cache.get('a'), undefined, 'the oldest made room');
    assert.equal((await cache.get('b'))?.tier, 'disk');
    assert.equal((await cache.get('c'))?.tier, 'disk');
  });

  it('answers without storing when even an empty cache would leave the disk too full', async () => {
    const cache = await openCache({ maxMemoryBytes: 0, spareBytes: async () => -MiB });
    const answer = await cache.getOrCreate('a', producing('a'));
    assert.equal(answer.source, 'computed');
    assert.deepEqual(answer.variant.data, bytesFor('a'));
    assert.deepEqual(await cacheFiles(directory), []);
  });
});
