import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { stripMetadata } from '../transform/strip-metadata.ts';

const ACCEPT_CH = 'Sec-CH-DPR, Sec-CH-Width, DPR, Width, Save-Data';
const ALL_HINTS = 'Sec-CH-DPR, DPR, Sec-CH-Width, Width, Save-Data';

async function cdn(t: TestServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

/** Decoded width and height of an answer. */
async function size(answer: { status: number; body: Buffer }): Promise<[number | undefined, number | undefined]> {
  assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
  const { width, height } = await sharp(answer.body).metadata();
  return [width, height];
}

async function project(t: TestServer, name: string, clientHints: boolean) {
  const created = await t.request('POST', '/api/images/projects', { body: { name } });
  const id: string = created.body.id;
  if (clientHints) {
    const changed = await t.request('PATCH', `/api/images/projects/${id}`, { body: { clientHints: true } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.clientHints, true);
  }
  const upload = await fetch(`${t.url}/api/images/projects/${id}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.owner.key}` },
    body: uploadForm({ name: 'hubble.jpg', data: await readTestImage('hubble_deep_field.jpg') }),
  });
  assert.equal(upload.status, 201);
  for (const [name, transforms] of [
    ['card', { width: 300 }],
    ['box', { width: 300, height: 200, fit: 'cover' }],
  ] as const) {
    assert.equal((await t.request('POST', `/api/images/projects/${id}/presets`, { body: { name, transforms } })).status, 201);
  }
  return { id, slug: created.body.slug as string };
}

for (const dialect of testDialects()) {
  describe(`CDN client hints (${dialect})`, () => {
    let t: TestServer;
    let on: string;
    let off: string;
    let offId: string;
    before(async () => {
      // 1 Mpx: a 3× hint on a 300×300 box would pass it, so the fallback to the URL's own size shows.
      t = await startTestServer(dialect, { maxOutputPixels: 1_000_000 });
      on = (await project(t, 'Hinted', true)).slug;
      ({ slug: off, id: offId } = await project(t, 'Plain', false));
    });
    after(() => t.close());

    it('is off by default, and a project with hints off ignores them and does not vary on them', async () => {
      assert.equal((await t.request('GET', `/api/images/projects/${offId}`)).body.clientHints, false);
      const answer = await cdn(t, `/cdn/${off}/hubble.jpg?t=card`, { 'sec-ch-dpr': '2', 'sec-ch-width': '800', 'save-data': 'on' });
      assert.deepEqual(await size(answer), [300, 262]);
      assert.equal(answer.headers.get('accept-ch'), null);
      assert.equal(answer.headers.get('vary'), null);
    });

    it('takes clientHints as a boolean only, from this workspace only', async () => {
      const path = `/api/images/projects/${offId}`;
      for (const value of ['yes', 1, null, 'true']) {
        const answer = await t.request('PATCH', path, { body: { clientHints: value } });
        assert.equal(answer.status, 400, JSON.stringify(value));
        assert.ok(answer.body.details.fieldErrors.clientHints, JSON.stringify(answer.body));
      }
      const other = await t.createWorkspace();
      assert.equal((await t.request('PATCH', path, { body: { clientHints: true }, key: other.key })).status, 404);
      assert.equal((await t.request('GET', path)).body.clientHints, false);
    });

    it('makes a 300-wide preset 600 px wide under Sec-CH-DPR: 2, with Accept-CH and Vary exact', async () => {
      const answer = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-dpr': '2' });
      assert.deepEqual(await size(answer), [600, 523]);
      assert.equal(answer.headers.get('accept-ch'), ACCEPT_CH);
      assert.equal(answer.headers.get('vary'), ALL_HINTS);
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { dpr: '2' })), [600, 523], 'legacy DPR');
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-dpr': '1', dpr: '3' })), [300, 262]);
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-dpr': '2.625' })), [900, 785]);
    });

    it('takes the Width hint in physical pixels, rounded up to 100, never past the original', async () => {
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-width': '480', 'sec-ch-dpr': '3' })), [500, 436]);
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { width: '480' })), [500, 436], 'legacy Width');
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-width': '7000' })), [1000, 872]);
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=box`, { 'sec-ch-width': '600' })), [600, 400], 'box aspect kept');
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg`, { 'sec-ch-width': '400' })), [400, 349], 'bare URL');
      const original = await readTestImage('hubble_deep_field.jpg');
      const past = await cdn(t, `/cdn/${on}/hubble.jpg`, { 'sec-ch-width': '4000' });
      // As stored, less its metadata (stripped by default: cdn-metadata.test.ts).
      assert.ok(past.body.equals(stripMetadata(original, 'jpeg') as Buffer), 'a bare URL past the original width is the original');
    });

    it('shares one variant between hints that make the same pixels', async () => {
      const first = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-width': '701' });
      const second = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-width': '760' });
      const byDpr = await cdn(t, `/cdn/${on}/hubble.jpg?w=400&dpr=2`, { 'sec-ch-dpr': '1.6' });
      const byWidth = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-width': '800' });
      assert.deepEqual(await size(first), [800, 698]);
      assert.equal(second.headers.get('etag'), first.headers.get('etag'));
      assert.equal(second.headers.get('x-cache'), 'hit');
      assert.equal(byWidth.headers.get('etag'), first.headers.get('etag'));
      assert.equal(byDpr.headers.get('etag'), first.headers.get('etag'), 'w=400&dpr=2 is the same 800 px');
    });

    it('lowers the bytes under Save-Data: on', async () => {
      const full = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`);
      const saving = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'save-data': 'on' });
      assert.deepEqual(await size(saving), await size(full));
      assert.ok(saving.body.length < full.body.length * 0.85, `${saving.body.length} vs ${full.body.length}`);
      const bare = await cdn(t, `/cdn/${on}/hubble.jpg`, { 'save-data': 'on' });
      assert.ok(bare.body.length < (await readTestImage('hubble_deep_field.jpg')).length);
      assert.equal((await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'save-data': 'off' })).headers.get('etag'), full.headers.get('etag'));
    });

    it('lets explicit w, dpr and q in the URL win, and leaves them out of Vary', async () => {
      const hints = { 'sec-ch-dpr': '3', 'sec-ch-width': '900', 'save-data': 'on' };
      const width = await cdn(t, `/cdn/${on}/hubble.jpg?t=card&w=200`, hints);
      assert.deepEqual(await size(width), [600, 523], 'w wins over Width; DPR still multiplies it');
      assert.equal(width.headers.get('vary'), 'Sec-CH-DPR, DPR, Save-Data');
      const all = await cdn(t, `/cdn/${on}/hubble.jpg?w=200&dpr=1&q=80`, hints);
      assert.deepEqual(await size(all), [200, 174]);
      assert.equal(all.headers.get('vary'), null);
      assert.equal(all.headers.get('accept-ch'), ACCEPT_CH);
      const auto = await cdn(t, `/cdn/${on}/hubble.jpg?w=200&dpr=1&q=80&f=auto`, { ...hints, accept: 'image/webp' });
      assert.equal(auto.headers.get('vary'), 'Accept');
      const plain = await cdn(t, `/cdn/${on}/hubble.jpg?w=200&dpr=1&q=80`);
      assert.equal(plain.headers.get('etag'), all.headers.get('etag'));
    });

    it('ignores garbage and out-of-range hint values safely', async () => {
      const plain = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`);
      for (const value of ['abc', '0', '-1', '1e3', '2, 3', '', '9'.repeat(40), '../../etc']) {
        const answer = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, {
          'sec-ch-dpr': value,
          'sec-ch-width': value,
          width: value,
          'save-data': value,
        });
        assert.equal(answer.status, 200, value);
        assert.equal(answer.headers.get('etag'), plain.headers.get('etag'), value);
      }
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-dpr': '40' })), [900, 785], 'clamped to dpr 3');
    });

    it("keeps the output bound: a hint past it falls back to the URL's own size, never a 400", async () => {
      const answer = await cdn(t, `/cdn/${on}/hubble.jpg?w=400&h=400`, { 'sec-ch-dpr': '3' });
      assert.deepEqual(await size(answer), [400, 400], '1200×1200 would pass the 1 Mpx bound');
      assert.deepEqual(await size(await cdn(t, `/cdn/${on}/hubble.jpg?w=400&h=400`, { 'sec-ch-dpr': '2' })), [800, 800]);
    });

    it('varies a signed URL only within its preset, and lets no hint stand in for a signature', async () => {
      const signed = await project(t, 'Signed', true);
      const signing = `/api/images/projects/${signed.id}/signing`;
      assert.equal((await t.request('POST', signing, { body: { requireSignedUrls: true } })).status, 200);
      const url = new URL((await t.request('PUT', signing, { body: { path: 'hubble.jpg', params: { t: 'card' } } })).body.url);
      const path = `${url.pathname}${url.search}`;
      assert.deepEqual(await size(await cdn(t, path, { 'sec-ch-dpr': '2' })), [600, 523]);
      assert.deepEqual(await size(await cdn(t, path, { 'sec-ch-width': '7000' })), [1000, 872], 'at most the original');
      const unsigned = await cdn(t, `/cdn/${signed.slug}/hubble.jpg?t=card`, { 'sec-ch-dpr': '2' });
      assert.equal(unsigned.status, 403);
      assert.equal(unsigned.headers.get('accept-ch'), ACCEPT_CH);
    });

    it('carries Accept-CH on 304s and errors of the project, and Vary on 304s', async () => {
      const first = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, { 'sec-ch-dpr': '2' });
      const revalidated = await cdn(t, `/cdn/${on}/hubble.jpg?t=card`, {
        'sec-ch-dpr': '2',
        'if-none-match': first.headers.get('etag') as string,
      });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.headers.get('accept-ch'), ACCEPT_CH);
      assert.equal(revalidated.headers.get('vary'), ALL_HINTS);
      for (const path of ['missing.jpg', 'hubble.jpg?t=nope', 'hubble.jpg?w=0']) {
        const error = await cdn(t, `/cdn/${on}/${path}`, { 'sec-ch-dpr': '2' });
        assert.ok(error.status === 400 || error.status === 404, path);
        assert.equal(error.headers.get('accept-ch'), ACCEPT_CH, path);
        assert.equal(error.headers.get('cache-control'), 'no-store');
      }
      assert.equal((await cdn(t, `/cdn/${off}/missing.jpg`)).headers.get('accept-ch'), null);
      assert.equal((await cdn(t, '/cdn/no-such-project/hubble.jpg')).headers.get('accept-ch'), null);
    });
  });
}
