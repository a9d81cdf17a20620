import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const LIMIT = 40_000_000;

async function cdn(t: TestServer, path: string) {
  const response = await fetch(`${t.url}${path}`);
  const body = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(body.toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, body, json };
}

async function upload(t: TestServer, projectId: string, name: string, data: Buffer) {
  const response = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.owner.key}` },
    body: uploadForm({ name, data }),
  });
  assert.equal(response.status, 201, await response.text());
}

const originals = async (t: TestServer) =>
  (await readdir(join(t.dataDir, 'originals'), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

for (const dialect of testDialects()) {
  describe(`CDN output bound (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;
    before(async () => {
      // One transform at a time and none waiting: a request that took a slot shows as 503 for the next.
      t = await startTestServer(dialect, { transformConcurrency: 1, transformQueue: 0 });
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Bounded' } });
      projectId = project.body.id;
      slug = project.body.slug;
      await upload(t, projectId, 'hubble.jpg', await readTestImage('hubble_deep_field.jpg'));
      const strip = await sharp({ create: { width: 10, height: 2000, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      await upload(t, projectId, 'strip.png', strip);
    });
    after(() => t.close());

    const refusedFor = (answer: Awaited<ReturnType<typeof cdn>>, width: number, height: number) => {
      assert.equal(answer.status, 400, answer.body.toString('utf8'));
      assert.equal(answer.json.code, 'output_too_large');
      assert.equal(answer.json.limit, LIMIT);
      assert.deepEqual(answer.json.requested, { width, height, pixels: width * height });
      assert.match(answer.json.error, /LOUPE_MAX_OUTPUT_PIXELS/);
    };

    it('refuses w=8189&h=8192&dpr=3&fit=fill (604 Mpx) with 400 output_too_large, the limit and the size', async () => {
      refusedFor(await cdn(t, `/cdn/${slug}/hubble.jpg?w=8189&h=8192&dpr=3&fit=fill`), 24567, 24576);
    });

    it('refuses a cover, a crop and a pad of an 8192×8192 box', async () => {
      for (const fit of ['cover', 'crop', 'pad']) refusedFor(await cdn(t, `/cdn/${slug}/hubble.jpg?w=8192&h=8192&fit=${fit}`), 8192, 8192);
    });

    it('refuses a contain the photo fills at dpr 3, by the size it would really have', async () => {
      refusedFor(await cdn(t, `/cdn/${slug}/hubble.jpg?w=8192&h=8192&dpr=3&fit=contain`), 24576, 21430);
    });

    it('serves a scale-down of the same box: it never enlarges', async () => {
      const answer = await cdn(t, `/cdn/${slug}/hubble.jpg?w=8192&h=8192&dpr=3&fit=scale-down&f=jpeg`);
      assert.equal(answer.status, 200);
      const { width, height } = await sharp(answer.body).metadata();
      assert.deepEqual([width, height], [1000, 872]);
    });

    it('counts the side that follows the aspect ratio, and rotation', async () => {
      refusedFor(await cdn(t, `/cdn/${slug}/strip.png?w=8192`), 8192, 1638400);
      refusedFor(await cdn(t, `/cdn/${slug}/strip.png?h=8192&rotate=90`), 1638400, 8192);
    });

    it('refuses a preset that makes an over-large box when it is saved or changed', async () => {
      const presets = `/api/images/projects/${projectId}/presets`;
      const created = await t.request('POST', presets, { body: { name: 'huge', transforms: { width: 8192, height: 8192, dpr: 3 } } });
      assert.equal(created.status, 400);
      assert.equal(created.body.code, 'output_too_large');
      assert.deepEqual(created.body.requested, { width: 24576, height: 24576, pixels: 24576 * 24576 });
      assert.equal(created.body.details.fieldErrors.transforms.length, 1);

      const small = await t.request('POST', presets, { body: { name: 'small', transforms: { width: 100 } } });
      assert.equal(small.status, 201);
      const changed = await t.request('PATCH', `${presets}/${small.body.id}`, {
        body: { transforms: { width: 8192, height: 8192, fit: 'fill' } },
      });
      assert.equal(changed.status, 400);
      assert.equal(changed.body.code, 'output_too_large');
      assert.deepEqual((await t.request('GET', `${presets}/${small.body.id}`)).body.transforms, { width: 100 });
    });

    it('saves a preset whose size depends on the original, and bounds it on delivery', async () => {
      const presets = `/api/images/projects/${projectId}/presets`;
      const saved = await t.request('POST', presets, {
        body: { name: 'fit-big', transforms: { width: 8192, height: 8192, dpr: 3, fit: 'contain' } },
      });
      assert.equal(saved.status, 201);
      refusedFor(await cdn(t, `/cdn/${slug}/hubble.jpg?t=fit-big`), 24576, 21430);
    });

    it('answers over-large requests without taking a transform slot, so a normal one is served beside them', async () => {
      const answers = await Promise.all([
        cdn(t, `/cdn/${slug}/hubble.jpg?w=8189&h=8192&dpr=3&fit=fill&f=webp`),
        cdn(t, `/cdn/${slug}/hubble.jpg?w=8190&h=8192&dpr=3&fit=fill&f=avif`),
        cdn(t, `/cdn/${slug}/hubble.jpg?w=320&f=webp`),
      ]);
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [400, 400, 200],
      );
    });

    it('refuses before decoding: an original that cannot be decoded still answers output_too_large', async () => {
      const before = new Set(await originals(t));
      await upload(t, projectId, 'broken.jpg', await readTestImage('rocket.jpg'));
      const [stored] = (await originals(t)).filter((file) => !before.has(file));
      await writeFile(stored as string, 'not an image any more');
      refusedFor(await cdn(t, `/cdn/${slug}/broken.jpg?w=8192&h=8192&fit=fill`), 8192, 8192);
      const decoded = await cdn(t, `/cdn/${slug}/broken.jpg?w=100`);
      assert.notEqual(decoded.json?.code ?? 'an image', 'output_too_large', 'a transform within bounds decodes it, and fails');
      assert.notEqual(decoded.status, 200);
    });
  });

  describe(`CDN transform timeout (${dialect})`, () => {
    let t: TestServer;
    let slug: string;
    before(async () => {
      t = await startTestServer(dialect, { transformTimeoutSeconds: 1 });
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Slow' } });
      slug = project.body.slug;
      await upload(t, project.body.id, 'hubble.jpg', await readTestImage('hubble_deep_field.jpg'));
    });
    after(() => t.close());

    it('answers a transform that outlasts the limit with 503 transform_timeout and Retry-After', async () => {
      // A sigma-125 blur over a 6000-wide enlargement takes far longer than the 1 s allowed
      // (a blur, not an encoder: libvips stops its own operations at the limit, not libheif's).
      const answer = await cdn(t, `/cdn/${slug}/hubble.jpg?w=6000&blur=250&f=png`);
      assert.equal(answer.status, 503);
      assert.equal(answer.json.code, 'transform_timeout');
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
    });
  });
}
