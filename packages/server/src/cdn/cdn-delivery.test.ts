import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { stripMetadata } from '../transform/strip-metadata.ts';
import {
  BLUE,
  decode,
  edgeEnergy,
  GREEN,
  luma,
  mean,
  near,
  type Pixels,
  pixel,
  RED,
  redCorner,
  redCornerOf,
  standardDeviation,
  synthetic,
  YELLOW,
} from '../transform/test-pixels.ts';

interface CdnAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Astronaut.png's face box (SOURCES.md): x 153, y 55, 145×145. */
const FACE_CENTRE = { x: 153 + 145 / 2, y: 55 + 145 / 2 };
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A GET sent byte for byte: fetch would resolve `..` in the path and refuses to set Host. */
function rawGet(base: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, path, method: 'GET', headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function json(answer: { body: Buffer }): any {
  return JSON.parse(answer.body.toString('utf8'));
}

/** Mean of max(R,G,B) − min(R,G,B): how colourful an image is. */
function chroma(image: Pixels): number {
  let total = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const [r, g, b] = image.data.subarray(i * image.channels, i * image.channels + 3);
    total += Math.max(r, g, b) - Math.min(r, g, b);
  }
  return total / (image.width * image.height);
}

const QUADRANT_COLOURS = { red: RED, green: GREEN, blue: BLUE, yellow: YELLOW };

function colourName(rgb: number[]): string {
  const found = Object.entries(QUADRANT_COLOURS).find(([, colour]) => near(rgb, colour, 40));
  return found ? found[0] : `rgb(${rgb.slice(0, 3).join(',')})`;
}

/** The first row of `original` (same width as `crop`) at which `crop` was cut out, by least difference. */
function cropTop(original: Pixels, crop: Pixels): number {
  let best = { top: -1, difference: Infinity };
  const rowBytes = original.width * original.channels;
  for (let top = 0; top + crop.height <= original.height; top++) {
    let difference = 0;
    for (let row = 0; row < crop.height; row += 4) {
      for (let x = 0; x < rowBytes; x += 7) {
        difference += Math.abs(original.data[(top + row) * rowBytes + x]! - crop.data[row * rowBytes + x]!);
      }
    }
    if (difference < best.difference) best = { top, difference };
  }
  return best.top;
}

for (const dialect of testDialects()) {
  describe(`CDN delivery (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;

    const upload = async (project: string, name: string, data: Buffer, path = name) => {
      const response = await fetch(`${t.url}/api/images/projects/${project}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name, data }, { path }),
      });
      const body = await response.json();
      assert.equal(response.status, 201, JSON.stringify(body));
      return body as { id: string; width: number; height: number };
    };
    const cdn = async (path: string, query = '', headers: Record<string, string> = {}): Promise<CdnAnswer> => {
      const response = await fetch(`${t.url}/cdn/${slug}/${path}${query ? `?${query}` : ''}`, { headers });
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };
    /** A successful CDN answer, decoded. */
    const pixels = async (path: string, query = '', headers: Record<string, string> = {}) => {
      const answer = await cdn(path, query, headers);
      assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
      return decode(answer.body);
    };
    const size = async (path: string, query: string) => {
      const image = await pixels(path, query);
      return [image.width, image.height];
    };
    const usageToday = async (project = projectId) => {
      const answer = await t.request('GET', `/api/images/projects/${project}/usage?days=1`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body[0] as { date: string; requests: number; bytesServed: number; transforms: number; cacheHitRatio: number };
    };

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Delivery' } });
      projectId = project.body.id;
      slug = project.body.slug;
      await Promise.all([
        ...['astronaut.png', 'coffee.png', 'hubble_deep_field.jpg', 'rocket.jpg', 'chelsea.png'].map(async (name) =>
          upload(projectId, name, await readTestImage(name)),
        ),
        upload(projectId, 'red-corner.png', await redCorner()),
        upload(
          projectId,
          'quadrants.png',
          await synthetic(200, 200, (x, y) => (y < 100 ? (x < 100 ? RED : GREEN) : x < 100 ? BLUE : YELLOW)),
        ),
      ]);
    });
    after(() => t.close());

    describe('transform parameters', () => {
      it('cover fills the box exactly', async () => {
        assert.deepEqual(await size('rocket.jpg', 'w=300&h=300&fit=cover'), [300, 300]);
      });

      it('crop is the same as cover', async () => {
        const cover = await pixels('rocket.jpg', 'w=200&h=300&fit=cover&f=png');
        const crop = await pixels('rocket.jpg', 'w=200&h=300&fit=crop&f=png');
        assert.deepEqual([crop.width, crop.height], [200, 300]);
        assert.deepEqual(crop.data, cover.data);
      });

      it('contain fits inside the box, keeping the aspect ratio', async () => {
        assert.deepEqual(await size('rocket.jpg', 'w=300&h=300&fit=contain'), [300, 200]);
      });

      it('fill stretches to the box', async () => {
        assert.deepEqual(await size('rocket.jpg', 'w=300&h=100&fit=fill'), [300, 100]);
      });

      it('scale-down shrinks like contain and never enlarges', async () => {
        assert.deepEqual(await size('rocket.jpg', 'w=300&h=300&fit=scale-down'), [300, 200]);
        assert.deepEqual(await size('rocket.jpg', 'w=2000&h=2000&fit=scale-down'), [640, 427]);
        assert.deepEqual(await size('rocket.jpg', 'w=2000&fit=scale-down'), [640, 427]);
      });

      it('pad gives the exact box, with the bg colour in the band', async () => {
        const image = await pixels('rocket.jpg', 'w=300&h=300&fit=pad&bg=ff0000&f=png');
        assert.deepEqual([image.width, image.height], [300, 300]);
        for (const [x, y] of [
          [150, 5],
          [150, 294],
          [0, 0],
          [299, 299],
        ] as const) {
          assert.deepEqual(pixel(image, x, y).slice(0, 3), RED, `band at ${x},${y}`);
        }
        assert.ok(!near(pixel(image, 150, 150), RED), 'the picture fills the middle');
      });

      it('dpr multiplies width and height', async () => {
        assert.deepEqual(await size('rocket.jpg', 'w=100&h=50&dpr=2'), [200, 100]);
        assert.deepEqual(await size('rocket.jpg', 'w=100&dpr=3'), [300, 200]);
      });

      for (const [query, corner, dimensions] of [
        ['rotate=90', 'top-right', [40, 60]],
        ['rotate=180', 'bottom-right', [60, 40]],
        ['rotate=270', 'bottom-left', [40, 60]],
        ['flip=h', 'top-right', [60, 40]],
        ['flip=v', 'bottom-left', [60, 40]],
      ] as const) {
        it(`${query} moves the top-left red square to the ${corner}`, async () => {
          const image = await pixels('red-corner.png', query);
          assert.deepEqual([image.width, image.height], dimensions);
          assert.equal(redCornerOf(image), corner);
        });
      }

      it('grayscale makes R = G = B', async () => {
        const image = await pixels('coffee.png', 'w=200&grayscale=true&f=png');
        for (let i = 0; i < image.width * image.height; i++) {
          const [r, g, b] = image.data.subarray(i * image.channels, i * image.channels + 3);
          assert.ok(Math.abs(r! - g!) <= 1 && Math.abs(g! - b!) <= 1, `pixel ${i}: ${r},${g},${b}`);
        }
        assert.ok(chroma(await pixels('coffee.png', 'w=200&f=png')) > 10, 'the original has colour');
      });

      it('sepia gives warm tones: R ≥ G ≥ B everywhere', async () => {
        const image = await pixels('coffee.png', 'w=200&sepia=true&f=png');
        for (let i = 0; i < image.width * image.height; i++) {
          const [r, g, b] = image.data.subarray(i * image.channels, i * image.channels + 3);
          assert.ok(r! + 1 >= g! && g! + 1 >= b!, `pixel ${i}: ${r},${g},${b}`);
        }
        assert.ok(chroma(image) > 5, 'tinted, not grey');
      });

      it('brightness raises and lowers the mean luma', async () => {
        const base = mean(luma(await pixels('coffee.png', 'w=200&f=png')));
        assert.ok(mean(luma(await pixels('coffee.png', 'w=200&f=png&brightness=40'))) > base + 10);
        assert.ok(mean(luma(await pixels('coffee.png', 'w=200&f=png&brightness=-40'))) < base - 10);
      });

      it('contrast raises and lowers the spread of luma', async () => {
        const base = standardDeviation(luma(await pixels('coffee.png', 'w=200&f=png')));
        assert.ok(standardDeviation(luma(await pixels('coffee.png', 'w=200&f=png&contrast=50'))) > base * 1.2);
        assert.ok(standardDeviation(luma(await pixels('coffee.png', 'w=200&f=png&contrast=-50'))) < base * 0.8);
      });

      it('saturation raises and lowers chroma', async () => {
        const base = chroma(await pixels('coffee.png', 'w=200&f=png'));
        assert.ok(chroma(await pixels('coffee.png', 'w=200&f=png&saturation=60')) > base * 1.2);
        assert.ok(chroma(await pixels('coffee.png', 'w=200&f=png&saturation=-60')) < base * 0.8);
        assert.ok(chroma(await pixels('coffee.png', 'w=200&f=png&saturation=-100')) < 1.5);
      });

      it('blur lowers edge energy and sharpen raises it', async () => {
        const base = edgeEnergy(await pixels('hubble_deep_field.jpg', 'w=500&f=png'));
        assert.ok(edgeEnergy(await pixels('hubble_deep_field.jpg', 'w=500&f=png&blur=4')) < base * 0.5);
        assert.ok(edgeEnergy(await pixels('hubble_deep_field.jpg', 'w=500&f=png&sharpen=2')) > base * 1.1);
      });

      it('radius leaves transparent corners in PNG', async () => {
        const image = await pixels('coffee.png', 'w=200&radius=40');
        assert.equal(image.channels, 4);
        assert.equal(pixel(image, 0, 0)[3], 0);
        assert.equal(pixel(image, image.width - 1, image.height - 1)[3], 0);
        assert.equal(pixel(image, 100, 0)[3], 255, 'the edges between the corners stay');
        assert.equal(pixel(image, 100, 66)[3], 255);
      });

      it('radius=max makes a circle', async () => {
        const image = await pixels('coffee.png', 'w=200&h=200&radius=max');
        assert.deepEqual([image.width, image.height, image.channels], [200, 200, 4]);
        for (const [x, y] of [
          [20, 20],
          [179, 20],
          [20, 179],
          [179, 179],
        ] as const)
          assert.equal(pixel(image, x, y)[3], 0, `${x},${y}`);
        for (const [x, y] of [
          [100, 2],
          [2, 100],
          [197, 100],
          [100, 197],
          [100, 100],
          [35, 35],
        ] as const) {
          assert.equal(pixel(image, x, y)[3], 255, `${x},${y}`);
        }
      });

      it('radius on JPEG fills the corners with bg', async () => {
        const answer = await cdn('rocket.jpg', 'w=200&h=200&radius=max&bg=00ff00');
        assert.equal(answer.headers.get('content-type'), 'image/jpeg');
        const image = await decode(answer.body);
        assert.equal(image.channels, 3);
        assert.ok(near(pixel(image, 3, 3), GREEN, 30), `corner ${pixel(image, 3, 3)}`);
        assert.ok(near(pixel(image, 196, 196), GREEN, 30));
        assert.ok(!near(pixel(image, 100, 100), GREEN, 60), 'the picture fills the middle');
      });

      for (const [gravity, expected] of [
        ['top-left', 'red'],
        ['top-right', 'green'],
        ['bottom-left', 'blue'],
        ['bottom-right', 'yellow'],
      ] as const) {
        it(`gravity ${gravity} keeps the ${gravity} quadrant`, async () => {
          // A wide box crops rows, a tall one columns: the quadrant is what both kept.
          const wide = await pixels('quadrants.png', `w=100&h=20&g=${gravity}&f=png`);
          const tall = await pixels('quadrants.png', `w=20&h=100&g=${gravity}&f=png`);
          const rows = new Set([colourName(pixel(wide, 25, 10)), colourName(pixel(wide, 75, 10))]);
          const columns = new Set([colourName(pixel(tall, 10, 25)), colourName(pixel(tall, 10, 75))]);
          assert.deepEqual(
            [...rows].filter((colour) => columns.has(colour)),
            [expected],
            `${[...rows]} / ${[...columns]}`,
          );
        });
      }

      it('face gravity crops around the astronaut’s face, unlike center', async () => {
        // A 512-wide box on a 512×512 image crops rows only, at scale 1: the answer is a band of the original.
        const original = await decode(await readTestImage('astronaut.png'));
        const face = await pixels('astronaut.png', 'w=512&h=128&g=face&f=png');
        const centre = await pixels('astronaut.png', 'w=512&h=128&g=center&f=png');
        const faceTop = cropTop(original, face);
        const centreTop = cropTop(original, centre);
        assert.equal(centreTop, 192);
        assert.ok(faceTop <= FACE_CENTRE.y && FACE_CENTRE.y < faceTop + 128, `face crop rows ${faceTop}–${faceTop + 128}`);
        assert.ok(!(centreTop <= FACE_CENTRE.y && FACE_CENTRE.y < centreTop + 128), 'center misses the face');
      });

      it('face gravity on coffee.png, which has no face, equals auto', async () => {
        const face = await pixels('coffee.png', 'w=150&h=300&g=face&f=png');
        const auto = await pixels('coffee.png', 'w=150&h=300&g=auto&f=png');
        assert.deepEqual([face.width, face.height], [150, 300]);
        assert.deepEqual(face.data, auto.data);
      });

      for (const [format, contentType, magic] of [
        ['jpeg', 'image/jpeg', (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
        ['png', 'image/png', (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
        ['webp', 'image/webp', (b: Buffer) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP'],
        ['avif', 'image/avif', (b: Buffer) => b.toString('latin1', 4, 8) === 'ftyp' && b.toString('latin1', 8, 12) === 'avif'],
        ['jxl', 'image/jxl', (b: Buffer) => b[0] === 0xff && b[1] === 0x0a],
      ] as const) {
        it(`f=${format} answers ${contentType} with its magic bytes`, async () => {
          const answer = await cdn('rocket.jpg', `w=60&f=${format}`);
          assert.equal(answer.status, 200);
          assert.equal(answer.headers.get('content-type'), contentType);
          assert.ok(magic(answer.body), `starts with ${answer.body.subarray(0, 12).toString('hex')}`);
          assert.equal(answer.headers.get('vary'), null);
          if (format !== 'jxl') {
            const { width, height } = await sharp(answer.body).metadata();
            assert.deepEqual([width, height], [60, 40]);
          }
        });
      }

      it('f=auto answers AVIF to a client that names it, JPEG to */*, with Vary: Accept', async () => {
        const modern = await cdn('rocket.jpg', 'w=64&f=auto', { accept: 'image/avif,image/webp,*/*' });
        assert.equal(modern.headers.get('content-type'), 'image/avif');
        assert.equal(modern.body.toString('latin1', 8, 12), 'avif');
        assert.equal(modern.headers.get('vary'), 'Accept');
        const plain = await cdn('rocket.jpg', 'w=64&f=auto', { accept: '*/*' });
        assert.equal(plain.headers.get('content-type'), 'image/jpeg');
        assert.equal(plain.body[0], 0xff);
        assert.equal(plain.headers.get('vary'), 'Accept');
        assert.notEqual(plain.headers.get('etag'), modern.headers.get('etag'));
      });

      it('q=20 is smaller than q=90', async () => {
        const low = await cdn('rocket.jpg', 'w=400&q=20');
        const high = await cdn('rocket.jpg', 'w=400&q=90');
        assert.ok(low.body.length < high.body.length, `${low.body.length} < ${high.body.length}`);
      });

      it('qualityMode high is at least as large as low', async () => {
        const low = await cdn('rocket.jpg', 'w=400&qualityMode=low');
        const high = await cdn('rocket.jpg', 'w=400&qualityMode=high');
        assert.deepEqual([low.status, high.status], [200, 200]);
        assert.ok(high.body.length >= low.body.length, `${high.body.length} ≥ ${low.body.length}`);
        assert.notEqual(high.headers.get('etag'), low.headers.get('etag'));
      });
    });

    describe('presets', () => {
      let presetId: string;
      before(async () => {
        const created = await t.request('POST', `/api/images/projects/${projectId}/presets`, {
          body: { name: 'card', transforms: { width: 120, height: 80, fit: 'cover', format: 'webp' } },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        presetId = created.body.id;
      });

      it('t=<preset> applies the preset', async () => {
        const answer = await cdn('rocket.jpg', 't=card');
        assert.equal(answer.headers.get('content-type'), 'image/webp');
        const image = await decode(answer.body);
        assert.deepEqual([image.width, image.height], [120, 80]);
      });

      it('ad-hoc values override the preset’s', async () => {
        const answer = await cdn('rocket.jpg', 't=card&w=60&f=png');
        assert.equal(answer.headers.get('content-type'), 'image/png');
        const image = await decode(answer.body);
        assert.deepEqual([image.width, image.height], [60, 80]);
      });

      it('an unknown preset is 400 with the JSON error body', async () => {
        const answer = await cdn('rocket.jpg', 't=no-such-preset');
        assert.equal(answer.status, 400);
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        const body = json(answer);
        assert.equal(body.code, 'validation_failed');
        assert.equal(typeof body.error, 'string');
        assert.ok(body.details.fieldErrors.t.length > 0);
        assert.deepEqual(body.details.formErrors, []);
      });

      it('an updated preset changes the answer at once', async () => {
        const before = await cdn('rocket.jpg', 't=card');
        const patched = await t.request('PATCH', `/api/images/projects/${projectId}/presets/${presetId}`, {
          body: { transforms: { width: 50, height: 50, format: 'png' } },
        });
        assert.equal(patched.status, 200, JSON.stringify(patched.body));
        const answer = await cdn('rocket.jpg', 't=card');
        assert.equal(answer.headers.get('content-type'), 'image/png');
        const image = await decode(answer.body);
        assert.deepEqual([image.width, image.height], [50, 50]);
        assert.notEqual(answer.headers.get('etag'), before.headers.get('etag'));
      });

      it('a deleted preset is 400 at once, not a stale variant', async () => {
        assert.equal((await cdn('rocket.jpg', 't=card')).status, 200);
        const deleted = await t.request('DELETE', `/api/images/projects/${projectId}/presets/${presetId}`);
        assert.deepEqual(deleted.body, { deleted: true });
        const answer = await cdn('rocket.jpg', 't=card');
        assert.equal(answer.status, 400);
        assert.equal(json(answer).code, 'validation_failed');
      });
    });

    describe('caching', () => {
      it('answers a repeated request from the cache', async () => {
        const first = await cdn('chelsea.png', 'w=111');
        const second = await cdn('chelsea.png', 'w=111');
        assert.deepEqual([first.headers.get('x-cache'), second.headers.get('x-cache')], ['miss', 'hit']);
        assert.deepEqual(second.body, first.body);
      });

      it('carries a strong ETag and an immutable year-long Cache-Control', async () => {
        const answer = await cdn('chelsea.png', 'w=111');
        assert.match(answer.headers.get('etag') ?? '', /^"[^"]+"$/);
        assert.equal(answer.headers.get('cache-control'), IMMUTABLE);
      });

      it('answers 304 without a body to If-None-Match with the ETag', async () => {
        const etag = (await cdn('chelsea.png', 'w=111')).headers.get('etag') ?? '';
        const answer = await cdn('chelsea.png', 'w=111', { 'if-none-match': etag });
        assert.equal(answer.status, 304);
        assert.equal(answer.body.length, 0);
        assert.equal(answer.headers.get('etag'), etag);
        assert.equal((await cdn('chelsea.png', 'w=111', { 'if-none-match': '"something-else"' })).status, 200);
      });

      it('serves the new image, with a new ETag, once the path is uploaded again', async () => {
        await upload(projectId, 'swap.png', await readTestImage('chelsea.png'));
        const before = await cdn('swap.png', 'w=100');
        assert.deepEqual([(await decode(before.body)).height, before.headers.get('x-cache')], [67, 'miss']);
        assert.equal((await cdn('swap.png', 'w=100')).headers.get('x-cache'), 'hit');
        await upload(projectId, 'swap.png', await readTestImage('astronaut.png'));
        const after = await cdn('swap.png', 'w=100');
        const image = await decode(after.body);
        assert.deepEqual([image.width, image.height], [100, 100]);
        assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
        const original = await cdn('swap.png');
        // As stored, less its text chunks (metadata is stripped by default: cdn-metadata.test.ts).
        assert.deepEqual(original.body, stripMetadata(await readTestImage('astronaut.png'), 'png'));
      });

      it('answers 404 once the image is deleted', async () => {
        const { id } = await upload(projectId, 'doomed.png', await readTestImage('chelsea.png'));
        assert.equal((await cdn('doomed.png', 'w=90')).status, 200);
        assert.equal((await cdn('doomed.png')).status, 200);
        const deleted = await t.request('DELETE', `/api/images/projects/${projectId}/images/${id}`);
        assert.deepEqual(deleted.body, { deleted: true });
        for (const query of ['w=90', '']) {
          const answer = await cdn('doomed.png', query);
          assert.equal(answer.status, 404, query);
          assert.equal(json(answer).code, 'not_found');
          assert.equal(answer.headers.get('cache-control'), 'no-store');
        }
      });

      it('drops the cached variants of a deleted image from the disk cache at once', async () => {
        const variantFiles = async () =>
          (await readdir(join(t.dataDir, 'variants'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
        const { id } = await upload(projectId, 'purged.png', await readTestImage('chelsea.png'));
        const before = await variantFiles();
        for (const width of [31, 32, 33]) assert.equal((await cdn('purged.png', `w=${width}`)).status, 200);
        assert.equal(await variantFiles(), before + 3);
        await t.request('DELETE', `/api/images/projects/${projectId}/images/${id}`);
        assert.equal(await variantFiles(), before);
      });

      it('transforms once for 20 concurrent identical cold requests', async () => {
        const before = await usageToday();
        const answers = await Promise.all(Array.from({ length: 20 }, () => cdn('hubble_deep_field.jpg', 'w=333&f=webp')));
        assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
        assert.equal(new Set(answers.map((answer) => answer.headers.get('etag'))).size, 1);
        const after = await usageToday();
        assert.equal(after.transforms - before.transforms, 1);
        assert.equal(after.requests - before.requests, 20);
      });
    });

    describe('errors', () => {
      let neighbourSlug: string;
      before(async () => {
        const neighbour = await t.request('POST', '/api/images/projects', { body: { name: 'Neighbour' } });
        neighbourSlug = neighbour.body.slug;
        await upload(neighbour.body.id, 'secret.png', await readTestImage('coffee.png'));
      });

      const assertError = (
        answer: { status: number; headers: Headers | IncomingHttpHeaders; body: Buffer },
        status: number,
        code: string,
      ) => {
        assert.equal(answer.status, status, answer.body.toString('utf8').slice(0, 200));
        const headers = answer.headers instanceof Headers ? Object.fromEntries(answer.headers) : answer.headers;
        assert.match(String(headers['content-type']), /^application\/json/);
        assert.equal(headers['cache-control'], 'no-store');
        const body = json(answer);
        assert.equal(body.code, code);
        return body;
      };

      it('answers 404 for an unknown project slug', async () => {
        assertError(await fetch(`${t.url}/cdn/no-such-project/rocket.jpg`).then(toAnswer), 404, 'not_found');
      });

      it('answers 404 for a slug no project can have (a NUL byte, upper case, a space), on every database', async () => {
        for (const odd of ['%00', `${slug}%00`, slug.toUpperCase(), 'a%20b', '%C3%BC']) {
          assertError(await rawGet(t.url, `/cdn/${odd}/rocket.jpg`), 404, 'not_found');
        }
      });

      it('answers 404 for an unknown image', async () => {
        assertError(await cdn('no-such-image.png', 'w=10'), 404, 'not_found');
        assertError(await cdn('no-such-image.png'), 404, 'not_found');
      });

      for (const attempt of [
        (s: string, n: string) => `/cdn/${s}/../${n}/secret.png`,
        (s: string, n: string) => `/cdn/${s}/%2e%2e/${n}/secret.png`,
        (s: string, n: string) => `/cdn/${s}/%2E%2E%2F${n}%2Fsecret.png`,
        (s: string, n: string) => `/cdn/${s}/..%2f${n}%2fsecret.png`,
        (s: string, n: string) => `/cdn/${s}/sub%2F..%2F..%2F${n}%2Fsecret.png`,
        (s: string) => `/cdn/${s}/%2Fetc%2Fpasswd`,
        (s: string) => `/cdn/${s}/..%5C..%5Cetc%5Cpasswd`,
        (s: string) => `/cdn/${s}/./rocket.jpg`,
        (s: string) => `/cdn/${s}/%2e/rocket.jpg`,
      ]) {
        it(`answers 404 to the traversal ${attempt('<slug>', '<other>')}`, async () => {
          const answer = await rawGet(t.url, attempt(slug, neighbourSlug));
          assertError(answer, 404, 'not_found');
        });
      }

      it('answers 404 to an encoded slash, which is not a folder separator', async () => {
        await upload(projectId, 'chelsea.png', await readTestImage('chelsea.png'), 'folder/cat.png');
        assert.equal((await cdn('folder/cat.png')).status, 200);
        for (const path of ['folder%2Fcat.png', 'folder%2fcat.png'])
          assertError(await rawGet(t.url, `/cdn/${slug}/${path}`), 404, 'not_found');
      });

      it('answers 400 with details to out-of-range values', async () => {
        for (const [query, name] of [
          ['w=0', 'w'],
          ['w=8193', 'w'],
          ['h=-1', 'h'],
          ['dpr=4', 'dpr'],
          ['q=101', 'q'],
          ['rotate=45', 'rotate'],
          ['bg=red', 'bg'],
          ['fit=squash', 'fit'],
        ]) {
          const body = assertError(await cdn('rocket.jpg', query), 400, 'validation_failed');
          assert.ok(body.details.fieldErrors[name]?.length > 0, `${query}: ${JSON.stringify(body)}`);
        }
      });

      it('answers 400 to an unknown parameter', async () => {
        const body = assertError(await cdn('rocket.jpg', 'w=10&colour=red'), 400, 'validation_failed');
        assert.deepEqual(Object.keys(body.details.fieldErrors), ['colour']);
      });
    });

    describe('custom domain', () => {
      before(async () => {
        const patched = await t.request('PATCH', `/api/images/projects/${projectId}`, { body: { customDomain: 'images.example.test' } });
        assert.equal(patched.status, 200, JSON.stringify(patched.body));
      });

      it('serves the project’s images at the root of its domain', async () => {
        const answer = await rawGet(t.url, '/rocket.jpg?w=80&f=png', { host: 'images.example.test' });
        assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 200));
        assert.equal(answer.headers['content-type'], 'image/png');
        assert.equal(answer.headers['cache-control'], IMMUTABLE);
        const image = await decode(answer.body);
        assert.deepEqual([image.width, image.height], [80, 53]);
        assert.deepEqual(image.data, (await pixels('rocket.jpg', 'w=80&f=png')).data);
      });

      it('does not serve the project on another host', async () => {
        const answer = await rawGet(t.url, '/rocket.jpg?w=80&f=png', { host: 'other.example.test' });
        assert.equal(answer.status, 404);
        assert.match(String(answer.headers['content-type']), /^application\/json/);
      });

      it('answers 404 on the domain for a path the project does not have', async () => {
        const answer = await rawGet(t.url, '/secret.png', { host: 'images.example.test' });
        assert.equal(answer.status, 404);
        assert.equal(json(answer).code, 'not_found');
      });
    });

    describe('usage', () => {
      let usageProject: string;
      let usageSlug: string;
      before(async () => {
        const created = await t.request('POST', '/api/images/projects', { body: { name: 'Usage' } });
        usageProject = created.body.id;
        usageSlug = created.body.slug;
        await upload(usageProject, 'cat.png', await readTestImage('chelsea.png'));
      });

      it('counts requests, bytes served, transforms and the cache hit ratio of the day', async () => {
        const empty = await usageToday(usageProject);
        assert.deepEqual(empty, {
          date: new Date().toISOString().slice(0, 10),
          requests: 0,
          bytesServed: 0,
          transforms: 0,
          cacheHitRatio: 0,
        });
        let bytes = 0;
        let etag = '';
        for (const query of ['w=50', 'w=50', 'w=70', 'w=70', 'w=70']) {
          const answer = await fetch(`${t.url}/cdn/${usageSlug}/cat.png?${query}`);
          assert.equal(answer.status, 200);
          bytes += (await answer.arrayBuffer()).byteLength;
          etag = answer.headers.get('etag') ?? '';
        }
        // A revalidation is a request answered from the cache, but it sends no image bytes.
        const revalidated = await fetch(`${t.url}/cdn/${usageSlug}/cat.png?w=70`, { headers: { 'if-none-match': etag } });
        assert.equal(revalidated.status, 304);
        assert.equal((await fetch(`${t.url}/cdn/${usageSlug}/missing.png`)).status, 404);
        const day = await usageToday(usageProject);
        assert.deepEqual(day, { date: empty.date, requests: 6, bytesServed: bytes, transforms: 2, cacheHitRatio: 4 / 6 });
      });

      it('answers one entry per day, oldest first, for days=1..90', async () => {
        const answer = await t.request('GET', `/api/images/projects/${usageProject}/usage?days=90`);
        assert.equal(answer.status, 200);
        assert.equal(answer.body.length, 90);
        const dates = answer.body.map((day: { date: string }) => day.date);
        assert.deepEqual(dates, [...dates].sort());
        assert.equal(dates.at(-1), new Date().toISOString().slice(0, 10));
        assert.equal(answer.body.at(-1).requests, 6);
        assert.ok(answer.body.slice(0, -1).every((day: { requests: number }) => day.requests === 0));
      });

      it('refuses days=0 and days=91', async () => {
        for (const days of [0, 91]) {
          const answer = await t.request('GET', `/api/images/projects/${usageProject}/usage?days=${days}`);
          assert.equal(answer.status, 400, `days=${days}`);
          assert.ok(answer.body.details.fieldErrors.days.length > 0);
        }
      });
    });
  });

  describe(`CDN overload (${dialect})`, () => {
    let t: TestServer;
    let slug: string;
    before(async () => {
      t = await startTestServer(dialect, { transformConcurrency: 1, transformQueue: 0 });
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Busy' } });
      slug = project.body.slug;
      const response = await fetch(`${t.url}/api/images/projects/${project.body.id}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: 'hubble.jpg', data: await readTestImage('hubble_deep_field.jpg') }),
      });
      assert.equal(response.status, 201);
    });
    after(() => t.close());

    it('refuses transforms beyond the limit with 503 overloaded and Retry-After, and serves the rest', async () => {
      const answers = await Promise.all(
        [1000, 960, 920, 880, 840, 800].map(async (width) => {
          const response = await fetch(`${t.url}/cdn/${slug}/hubble.jpg?w=${width}&f=avif`);
          return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
        }),
      );
      const refused = answers.filter((answer) => answer.status === 503);
      const served = answers.filter((answer) => answer.status === 200);
      assert.equal(refused.length + served.length, answers.length, `statuses ${answers.map((a) => a.status)}`);
      assert.ok(refused.length >= 1, `statuses ${answers.map((a) => a.status)}`);
      assert.ok(served.length >= 1, `statuses ${answers.map((a) => a.status)}`);
      for (const answer of refused) {
        assert.equal(json(answer).code, 'overloaded');
        assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
        assert.equal(answer.headers.get('cache-control'), 'no-store');
      }
      for (const answer of served) assert.equal(answer.headers.get('content-type'), 'image/avif');
    });
  });
}

async function toAnswer(response: Response): Promise<CdnAnswer> {
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
