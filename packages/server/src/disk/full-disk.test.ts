import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { mountSmallDisk, type SmallDisk } from '../testing/small-disk.ts';
import { type Dialect, testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { RESERVE_FILE } from './disk-guard.ts';

const MiB = 1024 * 1024;
/** 5 % of it (1.2 MiB) is the nearly-full mark: LOUPE_DISK_MIN_FREE_BYTES (1 GiB) is larger. */
const DISK_BYTES = 24 * MiB;
const NEARLY_FULL_BELOW = Math.floor(DISK_BYTES * 0.05);
const RESERVE_BYTES = MiB;

/** Every file under a folder of the data dir, as paths relative to it. */
async function filesUnder(directory: string): Promise<string[]> {
  if (!existsSync(directory)) return [];
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
    .sort();
}

/** A server whose LOUPE_DATA_DIR (database on SQLite, originals, variant cache) is a small disk of its own. */
async function serverOnSmallDisk(dialect: Dialect): Promise<{ t: TestServer; disk: SmallDisk }> {
  const disk = await mountSmallDisk(DISK_BYTES);
  try {
    const t = await startTestServer(dialect, {
      dataDir: disk.directory,
      schedulerTickMs: 0,
      disk: { minFreePercent: 5, minFreeBytes: 1024 * MiB, reserveBytes: RESERVE_BYTES },
    });
    return { t, disk };
  } catch (error) {
    await disk.close();
    throw error;
  }
}

for (const dialect of testDialects()) {
  describe(`a full data disk (${dialect})`, () => {
    let t: TestServer;
    let disk: SmallDisk;
    let projectId: string;
    let slug: string;
    const originals = () => filesUnder(join(disk.directory, 'originals'));
    const variants = () => filesUnder(join(disk.directory, 'variants'));
    const upload = async (path: string, image = 'rocket.jpg') =>
      fetch(`${t.url}/api/images/projects/${projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: path, data: await readTestImage(image) }),
      });
    const cdn = (path: string) => fetch(`${t.url}/cdn/${slug}/${path}`);

    before(async () => {
      ({ t, disk } = await serverOnSmallDisk(dialect));
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Full disk' } });
      projectId = project.body.id;
      slug = project.body.slug;
    });
    afterEach(() => disk.unfill());
    after(async () => {
      await t?.close();
      await disk?.close();
    });

    it('answers 507 insufficient_storage to an upload, leaving no file behind', async () => {
      assert.equal((await upload('before.jpg')).status, 201);
      const stored = await originals();
      await disk.fill();
      const answer = await upload('refused.jpg', 'coffee.png');
      assert.equal(answer.status, 507);
      assert.equal((await answer.json()).code, 'insufficient_storage');
      assert.deepEqual(await originals(), stored, 'no partial or temporary file');
      const listed = await t.request('GET', `/api/images/projects/${projectId}/images?prefix=refused`);
      assert.deepEqual(listed.body, []);
    });

    it('answers 507 to a staged PUT, keeping no file, and takes it once space is back', async () => {
      const slot = await t.request('POST', `/api/images/projects/${projectId}/images/upload`, { body: { path: 'staged.jpg' } });
      const stored = await originals();
      await disk.fill();
      const put = () =>
        fetch(t.url + new URL(slot.body.uploadUrl).pathname, { method: 'PUT', body: new Uint8Array(Buffer.alloc(300_000, 1)) });
      const refused = await put();
      assert.equal(refused.status, 507);
      assert.equal((await refused.json()).code, 'insufficient_storage');
      assert.deepEqual(await originals(), stored);
      await disk.unfill();
      assert.equal((await put()).status, 200);
    });

    it('deletes an image on a full disk, and its space comes back', async () => {
      const image = await (await upload('doomed.png', 'coffee.png')).json();
      await t.server.disk.tick();
      await disk.fill();
      const free = await disk.freeBytes();
      const deleted = await t.request('DELETE', `/api/images/projects/${projectId}/images/${image.id}`);
      assert.equal(deleted.status, 200);
      assert.equal((await t.request('GET', `/api/images/projects/${projectId}/images/${image.id}`)).status, 404);
      assert.ok((await disk.freeBytes()) - free >= image.fileSize, 'its original is gone from the disk');
    });

    it('takes uploads again once space is freed, without a restart', async () => {
      await disk.fill();
      assert.equal((await upload('while-full.jpg')).status, 507);
      await disk.unfill();
      assert.equal((await upload('after.jpg')).status, 201);
    });

    it('refuses an upload that would leave the disk nearly full, before it is full', async () => {
      await disk.fill(NEARLY_FULL_BELOW + 100 * 1024);
      assert.equal((await upload('too-big.png', 'astronaut.png')).status, 507, '790 KB would cross the mark');
    });

    it('evicts cached variants, and nothing else, to make room for an upload', async () => {
      assert.equal((await upload('source.png', 'coffee.png')).status, 201);
      for (const width of [500, 510, 520, 530]) assert.equal((await cdn(`source.png?w=${width}&f=png`)).status, 200);
      const cached = await variants();
      const images = (await t.request('GET', `/api/images/projects/${projectId}/images`)).body.length;
      await disk.fill(NEARLY_FULL_BELOW);
      const answer = await upload('fits-once-evicted.png', 'coffee.png');
      assert.equal(answer.status, 201);
      assert.ok((await variants()).length < cached.length, 'variants were evicted');
      const listed = (await t.request('GET', `/api/images/projects/${projectId}/images`)).body;
      assert.equal(listed.length, images + 1, 'every image is still there');
    });

    it('still delivers new variants on a full disk, taking no space for them', async () => {
      assert.equal((await upload('served.jpg')).status, 201);
      await disk.fill();
      const free = await disk.freeBytes();
      for (const width of [121, 122, 123]) {
        const answer = await cdn(`served.jpg?w=${width}&f=webp`);
        assert.equal(answer.status, 200);
        assert.equal(answer.headers.get('content-type'), 'image/webp');
        assert.ok((await answer.arrayBuffer()).byteLength > 0);
      }
      assert.deepEqual(
        (await variants()).filter((file) => file.endsWith('.tmp')),
        [],
        'no temporary file',
      );
      assert.ok((await disk.freeBytes()) >= free, 'the cache made its own room, if it kept them at all');
    });

    it('reports a nearly full disk at /readyz, still ready for deliveries, and ok once space is freed', async () => {
      await disk.fill(Math.floor(NEARLY_FULL_BELOW / 2));
      const nearlyFull = await t.request('GET', '/readyz', { key: null });
      assert.equal(nearlyFull.status, 200);
      assert.deepEqual([nearlyFull.body.status, nearlyFull.body.disk], ['ready', 'nearly_full']);
      await disk.unfill();
      const ready = await t.request('GET', '/readyz', { key: null });
      assert.equal(ready.status, 200);
      assert.equal(ready.body.disk, 'ok');
    });

    it('makes the space reserve again once it fits, never filling the disk for it', async () => {
      const reserve = join(disk.directory, RESERVE_FILE);
      await disk.fill();
      await t.server.disk.relieve();
      assert.equal(existsSync(reserve), false, 'released on a full disk');
      await disk.unfill();
      await disk.fill(NEARLY_FULL_BELOW + RESERVE_BYTES / 2);
      assert.equal((await t.server.disk.tick()).reserved, false, 'it would leave the disk nearly full');
      await disk.unfill();
      assert.equal((await t.server.disk.tick()).reserved, true);
      assert.equal(existsSync(reserve), true);
    });
  });
}

// The database itself on the full disk: SQLite's case (PostgreSQL's disk is its own).
describe('a full data disk under the SQLite database', () => {
  let t: TestServer;
  let disk: SmallDisk;
  let projectId: string;

  before(async () => {
    ({ t, disk } = await serverOnSmallDisk('sqlite'));
    projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Database' } })).body.id;
  });
  afterEach(() => disk.unfill());
  after(async () => {
    await t?.close();
    await disk?.close();
  });

  it('answers 507 to a write the database cannot make, then makes it once relieved', async () => {
    await t.server.disk.tick();
    await disk.fill();
    const create = () => t.request('POST', '/api/images/projects', { body: { name: 'One more' } });
    const refused = await create();
    assert.equal(refused.status, 507);
    assert.equal(refused.body.code, 'insufficient_storage');
    assert.equal((await create()).status, 201, 'the reserve was released for it');
    assert.equal((await t.request('GET', `/api/images/projects/${projectId}`)).status, 200);
  });
});

describe('a data disk that cannot be read', () => {
  it('answers /readyz 503, not 500', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'loupe-gone-'));
    const t = await startTestServer('sqlite', { dataDir, schedulerTickMs: 0 });
    try {
      await rm(dataDir, { recursive: true, force: true });
      const answer = await t.request('GET', '/readyz', { key: null });
      assert.equal(answer.status, 503);
      assert.equal(answer.body.code, 'not_ready');
    } finally {
      await t.close();
    }
  });
});
