import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { isStorageFull } from '../disk/storage-full.ts';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk.ts';
import { FileBlobStore } from './file-blob-store.ts';

const KiB = 1024;

describe('FileBlobStore on a full disk', () => {
  let disk: SmallDisk;
  const root = () => join(disk.directory, 'originals');
  const files = async () => (await readdir(disk.directory, { recursive: true })).filter((name) => name !== 'filler').sort();

  before(async () => {
    disk = await mountSmallDisk(2 * 1024 * KiB);
  });
  afterEach(() => disk.unfill());
  after(() => disk?.close());

  it('removes what it wrote when the disk fills during the write', async () => {
    const store = new FileBlobStore(root());
    await store.put('originals/p/kept', Buffer.alloc(10 * KiB, 1));
    const before = await files();
    await disk.fill(256 * KiB);
    await assert.rejects(store.put('originals/p/too-big', Buffer.alloc(1024 * KiB, 2)), (error) => isStorageFull(error));
    assert.deepEqual(await files(), before, 'no partial or temporary file');
    assert.ok((await disk.freeBytes()) >= 256 * KiB, 'its space is back');
  });

  it('writes nothing when the disk guard refuses the room', async () => {
    const refuse = async () => {
      throw new LoupeError('insufficient_storage');
    };
    const store = new FileBlobStore(root(), refuse);
    const before = await files();
    await assert.rejects(store.put('originals/q/refused', Buffer.alloc(KiB)), (error) => error instanceof LoupeError);
    assert.deepEqual(await files(), before);
  });
});
