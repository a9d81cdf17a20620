import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { pino } from 'pino';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk.ts';
import { DiskGuard, type DiskSettings, type DisposableSpace, RESERVE_FILE } from './disk-guard.ts';
import { isStorageFull } from './storage-full.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const DISK_BYTES = 8 * MiB;
/** 5 % of the disk: 1 GiB is the larger of the two marks here. */
const MIN_FREE = Math.floor(DISK_BYTES * 0.05);
const SETTINGS: DiskSettings = { minFreePercent: 5, minFreeBytes: 1024 * MiB, reserveBytes: 512 * KiB };

/** Disposable space as the variant cache holds it: one file, given back whole. */
class DisposableFile implements DisposableSpace {
  readonly path: string;
  readonly evicted: number[] = [];
  constructor(path: string) {
    this.path = path;
  }
  async fill(bytes: number): Promise<void> {
    await writeFile(this.path, Buffer.alloc(bytes, 1));
  }
  async evict(bytes: number): Promise<number> {
    const size = (await stat(this.path).catch(() => undefined))?.size ?? 0;
    this.evicted.push(bytes);
    await rm(this.path, { force: true });
    return size;
  }
}

describe('DiskGuard', () => {
  let disk: SmallDisk;
  let guard: DiskGuard;
  let cache: DisposableFile;
  const reserve = () => join(disk.directory, 'data', RESERVE_FILE);

  before(async () => {
    disk = await mountSmallDisk(DISK_BYTES);
  });
  beforeEach(async () => {
    guard = new DiskGuard(join(disk.directory, 'data'), SETTINGS, pino({ level: 'silent' }));
    await guard.open();
    cache = new DisposableFile(join(disk.directory, 'cache'));
    guard.giveWayFirst(cache);
  });
  afterEach(async () => {
    await disk.unfill();
    await rm(join(disk.directory, 'data'), { recursive: true, force: true });
    await rm(cache.path, { force: true });
  });
  after(() => disk?.close());

  it('counts the disk nearly full below 5 % of it free, or below LOUPE_DISK_MIN_FREE_BYTES if that is less', async () => {
    assert.equal((await guard.status()).minFreeBytes, MIN_FREE);
    const strict = new DiskGuard(disk.directory, { ...SETTINGS, minFreeBytes: 100 * KiB }, pino({ level: 'silent' }));
    assert.equal((await strict.status()).minFreeBytes, 100 * KiB);
    await disk.fill(MIN_FREE - 64 * KiB);
    assert.equal((await guard.status()).nearlyFull, true);
  });

  it('makes room by taking disposable space back, then refuses with 507', async () => {
    await cache.fill(400 * KiB);
    await disk.fill(MIN_FREE + 100 * KiB);
    await guard.makeRoom(300 * KiB);
    assert.equal(existsSync(cache.path), false, 'the cache gave way');
    await assert.rejects(
      guard.makeRoom(600 * KiB),
      (error: unknown) => error instanceof LoupeError && error.code === 'insufficient_storage',
    );
  });

  it('relieves a full disk from the cache first, and from the reserve only when that is not enough', async () => {
    assert.equal((await guard.tick()).reserved, true);
    await cache.fill(MIN_FREE + 200 * KiB);
    await disk.fill();
    await guard.relieve();
    assert.equal(existsSync(cache.path), false);
    assert.equal(existsSync(reserve()), true, 'the cache was enough');
    await disk.fill();
    await guard.relieve();
    assert.equal(existsSync(reserve()), false);
  });

  it('lets a SQLite deletion through on a full disk, which fails without the reserve', async () => {
    const file = join(disk.directory, 'data', 'loupe.db');
    const database = new DatabaseSync(file);
    try {
      database.exec('PRAGMA journal_mode = WAL; CREATE TABLE images (id INTEGER PRIMARY KEY, data BLOB)');
      for (let id = 1; id <= 40; id++) database.prepare('INSERT INTO images VALUES (?, ?)').run(id, Buffer.alloc(20 * KiB, id));
      assert.equal((await guard.tick()).reserved, true);
      await disk.fill();
      const remove = async (id: number) => database.prepare('DELETE FROM images WHERE id = ?').run(id);
      await assert.rejects(remove(1), (error) => isStorageFull(error), 'SQLite must write its WAL to delete');
      await guard.evenWhenFull(() => remove(1));
      assert.equal(database.prepare('SELECT count(*) AS n FROM images').get()?.n, 39);
    } finally {
      database.close();
    }
  });

  it('makes the reserve again once it fits above the mark, and not before', async () => {
    await disk.fill(MIN_FREE + SETTINGS.reserveBytes / 2);
    assert.deepEqual(await guard.tick(), { nearlyFull: false, reserved: false });
    await disk.unfill();
    assert.deepEqual(await guard.tick(), { nearlyFull: false, reserved: true });
    assert.equal((await stat(reserve())).size, SETTINGS.reserveBytes);
  });

  it('takes the cache back at each tick while the disk is nearly full', async () => {
    await cache.fill(200 * KiB);
    await disk.fill(MIN_FREE - 100 * KiB);
    assert.equal((await guard.tick()).nearlyFull, false, 'no longer once the cache gave way');
    assert.equal(existsSync(cache.path), false);
  });
});
