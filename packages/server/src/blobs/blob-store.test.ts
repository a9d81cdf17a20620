import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startTestS3 } from '../testing/test-s3.ts';
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

interface Backend {
  store: BlobStore;
  /** The same kind of store, whose storage fails on any access: an error from it other than the key's means I/O happened. */
  unreachable: BlobStore;
  /** Everything the backend holds, seen from outside the store (so a write that escaped its root shows too). */
  stored(): Promise<string[]>;
  close(): Promise<void>;
}

const backends: Record<string, () => Promise<Backend>> = {
  async file() {
    const dir = await mkdtemp(join(tmpdir(), 'loupe-blobs-'));
    const store = new FileBlobStore(join(dir, 'originals'));
    return {
      store,
      unreachable: new FileBlobStore('/dev/null/originals'),
      async stored() {
        const entries = await readdir(dir, { recursive: true, withFileTypes: true });
        return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
      },
      async close() {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
  async s3() {
    const s3 = await startTestS3({ prefix: 'tenant/' });
    const store = new S3BlobStore(s3.config);
    const unreachable = new S3BlobStore({ ...s3.config, endpoint: 'http://127.0.0.1:1' });
    return {
      store,
      unreachable,
      async stored() {
        const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }));
        return (listed.Contents ?? []).map((object) => object.Key as string);
      },
      async close() {
        await store.close();
        await unreachable.close();
        await s3.close();
      },
    };
  },
};

/** Every blob store keeps the same promises (blob-store.ts), whatever holds the bytes. */
for (const [name, open] of Object.entries(backends)) {
  describe(`blob store (${name})`, () => {
    let backend: Backend;
    let store: BlobStore;
    before(async () => {
      backend = await open();
      store = backend.store;
    });
    after(() => backend.close());

    it('gives back exactly the bytes put under a key', async () => {
      const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)), randomBytes(200_000)]);
      await store.put('originals/p1/round-trip', data, 'image/png');
      const read = await store.get('originals/p1/round-trip');
      assert.ok(Buffer.isBuffer(read));
      assert.ok(read.equals(data));
    });

    it('answers undefined for a key never put', async () => {
      assert.equal(await store.get('originals/p1/never-put'), undefined);
    });

    it('answers undefined once a blob is deleted', async () => {
      await store.put('originals/p1/deleted', Buffer.from('bytes'), 'image/jpeg');
      await store.delete('originals/p1/deleted');
      assert.equal(await store.get('originals/p1/deleted'), undefined);
    });

    it('deletes a key that holds nothing without complaint', async () => {
      await store.delete('originals/p1/not-there');
      await store.delete('originals/no-such-folder/not-there');
    });

    it('replaces a blob put again under the same key', async () => {
      await store.put('originals/p1/replaced', Buffer.from('first, longer version'), 'image/png');
      await store.put('originals/p1/replaced', Buffer.from('second'), 'image/webp');
      assert.deepEqual(await store.get('originals/p1/replaced'), Buffer.from('second'));
    });

    it('refuses an invalid key before any I/O', async () => {
      const before = (await backend.stored()).sort();
      for (const key of ['../x', '/abs', 'a//b']) {
        for (const target of [store, backend.unreachable]) {
          await assert.rejects(target.put(key, Buffer.from('x'), 'image/png'), /Invalid blob key/, `put ${key}`);
          await assert.rejects(target.get(key), /Invalid blob key/, `get ${key}`);
          await assert.rejects(target.delete(key), /Invalid blob key/, `delete ${key}`);
        }
      }
      assert.deepEqual((await backend.stored()).sort(), before);
    });
  });
}
