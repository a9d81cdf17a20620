import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { cdnUrl } from '../../../sdk/src/index.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

type Size = [width: number, height: number];

/**
 * rocket.jpg is 640×427. What README "Enlargement" promises for a 400×400 box, a width of 400
 * and a height of 300, at dpr 1, 2 and 3: the box times dpr under allow; under never, no side
 * of the picture beyond 640×427 (pad keeps its box, cover and fill shrink theirs to a square
 * the original covers, 427×427).
 */
const EXPECTED: Record<string, Record<'allow' | 'never', string>> = {
  'w=400&h=400&fit=cover': { allow: '400×400 800×800 1200×1200', never: '400×400 427×427 427×427' },
  'w=400&h=400&fit=crop': { allow: '400×400 800×800 1200×1200', never: '400×400 427×427 427×427' },
  'w=400&h=400&fit=fill': { allow: '400×400 800×800 1200×1200', never: '400×400 427×427 427×427' },
  'w=400&h=400&fit=contain': { allow: '400×267 800×534 1200×801', never: '400×267 640×427 640×427' },
  'w=400&h=400&fit=scale-down': { allow: '400×267 640×427 640×427', never: '400×267 640×427 640×427' },
  'w=400&h=400&fit=pad': { allow: '400×400 800×800 1200×1200', never: '400×400 800×800 1200×1200' },
  'w=400': { allow: '400×267 800×534 1200×801', never: '400×267 640×427 640×427' },
  'h=300': { allow: '450×300 899×600 1349×900', never: '450×300 640×427 640×427' },
};

async function cdn(t: TestServer, path: string) {
  const response = await fetch(`${t.url}${path}`);
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, body, text: () => body.toString('utf8') };
}

async function sizeOf(t: TestServer, path: string): Promise<Size> {
  const answer = await cdn(t, path);
  assert.equal(answer.status, 200, `${path}: ${answer.text()}`);
  const { width, height } = await sharp(answer.body).metadata();
  return [width, height];
}

/** The bounding box of the pixels that are not fully transparent: the picture inside a pad band. */
async function pictureSize(encoded: Buffer): Promise<Size> {
  const { data, info } = await sharp(encoded).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let [left, top, right, bottom] = [info.width, info.height, -1, -1];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if ((data[(y * info.width + x) * 4 + 3] as number) === 0) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  return [right - left + 1, bottom - top + 1];
}

for (const dialect of testDialects()) {
  describe(`CDN enlargement (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;
    let rocket: Buffer;
    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Enlarge' } });
      projectId = project.body.id;
      slug = project.body.slug;
      rocket = await readTestImage('rocket.jpg');
      const uploaded = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: 'rocket.jpg', data: rocket }),
      });
      assert.equal(uploaded.status, 201);
    });
    after(() => t.close());

    const setProject = async (enlarge: 'allow' | 'never') => {
      const answer = await t.request('PATCH', `/api/images/projects/${projectId}`, { body: { enlarge } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };
    const createPreset = async (name: string, transforms: Record<string, unknown>) =>
      t.request('POST', `/api/images/projects/${projectId}/presets`, { body: { name, transforms } });

    for (const [query, bySetting] of Object.entries(EXPECTED)) {
      for (const enlarge of ['allow', 'never'] as const) {
        it(`${query}&enlarge=${enlarge} at dpr 1, 2, 3 is ${bySetting[enlarge]}`, async () => {
          const made = [];
          for (const dpr of [1, 2, 3])
            made.push((await sizeOf(t, `/cdn/${slug}/rocket.jpg?${query}&dpr=${dpr}&enlarge=${enlarge}`)).join('×'));
          assert.equal(made.join(' '), bySetting[enlarge]);
        });
      }
    }

    it('pads to the box under never without enlarging the picture inside', async () => {
      for (const [dpr, picture] of [
        [1, [400, 267]],
        [2, [640, 427]],
        [3, [640, 427]],
      ] as const) {
        const answer = await cdn(t, `/cdn/${slug}/rocket.jpg?w=400&h=400&fit=pad&dpr=${dpr}&enlarge=never&f=png`);
        assert.equal(answer.status, 200, answer.text());
        assert.deepEqual(await pictureSize(answer.body), picture, `dpr ${dpr}`);
      }
      const allowed = await cdn(t, `/cdn/${slug}/rocket.jpg?w=400&h=400&fit=pad&dpr=2&enlarge=allow&f=png`);
      assert.deepEqual(await pictureSize(allowed.body), [800, 534]);
    });

    it('crops a cover that may not enlarge by gravity: the largest square of the original, from its left', async () => {
      const answer = await cdn(t, `/cdn/${slug}/rocket.jpg?w=800&h=800&g=left&enlarge=never&f=png`);
      const expected = await sharp(rocket).extract({ left: 0, top: 0, width: 427, height: 427 }).raw().toBuffer();
      const made = await sharp(answer.body).removeAlpha().raw().toBuffer();
      let difference = 0;
      for (let i = 0; i < made.length; i++) difference += Math.abs((made[i] as number) - (expected[i] as number));
      assert.ok(difference / made.length < 4, `mean difference ${difference / made.length}`);
    });

    it("follows the project's default when the URL says nothing, and a flip of it serves no stale variant", async () => {
      const url = `/cdn/${slug}/rocket.jpg?w=1000`;
      assert.deepEqual(await sizeOf(t, url), [1000, 667]);
      await setProject('never');
      try {
        assert.deepEqual(await sizeOf(t, url), [640, 427]);
        assert.deepEqual(await sizeOf(t, `/cdn/${slug}/rocket.jpg?w=500&h=500&dpr=2`), [427, 427]);
      } finally {
        await setProject('allow');
      }
      assert.deepEqual(await sizeOf(t, url), [1000, 667]);
    });

    it("lets a URL override the project's default either way", async () => {
      assert.deepEqual(await sizeOf(t, `/cdn/${slug}/rocket.jpg?w=1000&enlarge=never`), [640, 427]);
      await setProject('never');
      try {
        assert.deepEqual(await sizeOf(t, `/cdn/${slug}/rocket.jpg?w=1000&enlarge=allow`), [1000, 667]);
      } finally {
        await setProject('allow');
      }
    });

    it("lets a preset carry enlarge over the project's, and a URL override the preset", async () => {
      const created = await createPreset('no-upscale', { width: 1000, height: 1000, fit: 'cover', enlarge: 'never' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.transforms.enlarge, 'never');
      assert.deepEqual(await sizeOf(t, `/cdn/${slug}/rocket.jpg?t=no-upscale`), [427, 427]);
      assert.deepEqual(await sizeOf(t, `/cdn/${slug}/rocket.jpg?t=no-upscale&enlarge=allow`), [1000, 1000]);
    });

    it('saves a preset of a huge cover box that may not enlarge, and still refuses one that may', async () => {
      const huge = { width: 8192, height: 8192, dpr: 3, fit: 'cover' };
      assert.equal((await createPreset('huge-never', { ...huge, enlarge: 'never' })).status, 201);
      assert.deepEqual(await sizeOf(t, `/cdn/${slug}/rocket.jpg?t=huge-never`), [427, 427]);
      const refused = await createPreset('huge-default', huge);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'output_too_large');
    });

    for (const value of [true, 1, 'sometimes', 'NEVER', null]) {
      it(`refuses a preset with enlarge ${JSON.stringify(value)}`, async () => {
        const answer = await createPreset(`bad-${String(value)}`, { width: 100, enlarge: value });
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.ok(JSON.stringify(answer.body.details).includes('enlarge'), JSON.stringify(answer.body));
      });
    }

    for (const value of ['true', '1', 'sometimes', '', 'Never']) {
      it(`refuses enlarge=${value} in a URL with 400 on the parameter`, async () => {
        const answer = await cdn(t, `/cdn/${slug}/rocket.jpg?w=100&enlarge=${value}`);
        assert.equal(answer.status, 400, answer.text());
        const body = JSON.parse(answer.text());
        assert.equal(body.code, 'validation_failed');
        assert.ok(body.details.fieldErrors.enlarge?.length > 0, answer.text());
      });
    }

    it('refuses enlarge given twice', async () => {
      assert.equal((await cdn(t, `/cdn/${slug}/rocket.jpg?w=100&enlarge=never&enlarge=allow`)).status, 400);
    });

    it('answers enlarge without a width or height as the bare URL: nothing is resized', async () => {
      const answer = await cdn(t, `/cdn/${slug}/rocket.jpg?enlarge=never`);
      assert.equal(answer.status, 200);
      assert.ok(answer.body.equals((await cdn(t, `/cdn/${slug}/rocket.jpg`)).body));
    });

    it('covers enlarge by the signature when the project requires one', async () => {
      const signing = await t.request('POST', `/api/images/projects/${projectId}/signing`, {
        body: { enabled: true, requireSignedUrls: true },
      });
      assert.equal(signing.status, 200, JSON.stringify(signing.body));
      try {
        const signed = await cdnUrl({
          baseUrl: t.url,
          project: slug,
          path: 'rocket.jpg',
          transforms: { width: 1000, enlarge: 'never' },
          sign: { secret: signing.body.signingSecret },
        });
        const path = signed.slice(t.url.length);
        assert.deepEqual(await sizeOf(t, path), [640, 427]);
        assert.equal((await cdn(t, path.replace('enlarge=never', 'enlarge=allow'))).status, 403);
        assert.equal((await cdn(t, path.replace('enlarge=never&', ''))).status, 403);
      } finally {
        await t.request('POST', `/api/images/projects/${projectId}/signing`, { body: { requireSignedUrls: false } });
      }
    });
  });
}
