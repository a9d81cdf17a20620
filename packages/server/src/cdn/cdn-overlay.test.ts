import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { cdnUrl } from '../../../sdk/src/index.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadImage } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { BLUE, decode, GREEN, near, type Pixels, pixel, RED, synthetic } from '../transform/test-pixels.ts';

interface CdnAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** The base of every test: 200×100 blue, so an overlay's pixels stand out. */
const BASE = 'blue.png';
/** 20×20 red, opaque. */
const SQUARE = 'marks/red.png';

const isRed = (image: Pixels, x: number, y: number) => near(pixel(image, x, y), RED, 12);
const isBlue = (image: Pixels, x: number, y: number) => near(pixel(image, x, y), BLUE, 12);

/** Asserts `colour` at every point, naming the point and what was there. */
function assertAt(image: Pixels, colour: typeof isRed, points: readonly (readonly [number, number])[], what: string): void {
  for (const [x, y] of points) assert.ok(colour(image, x, y), `${what} at ${x},${y}: ${pixel(image, x, y)}`);
}

for (const dialect of testDialects()) {
  describe(`CDN overlays (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;

    const upload = (project: string, path: string, data: Buffer) => uploadImage(t, t.owner.key, project, path, data);
    const cdn = async (path: string, query: string): Promise<CdnAnswer> => {
      const response = await fetch(`${t.url}/cdn/${slug}/${path}?${query}`);
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };
    const pixels = async (query: string, path = BASE) => {
      const answer = await cdn(path, query);
      assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
      return decode(answer.body);
    };
    /** The columns of row `y` that are red. */
    const redColumns = (image: Pixels, y: number) => Array.from({ length: image.width }, (_, x) => x).filter((x) => isRed(image, x, y));
    const refused = async (query: string) => {
      const answer = await cdn(BASE, query);
      assert.equal(answer.status, 400, `${query}: ${answer.body.toString('utf8').slice(0, 300)}`);
      return JSON.parse(answer.body.toString('utf8'));
    };

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Overlays' } });
      projectId = project.body.id;
      slug = project.body.slug;
      await Promise.all([
        upload(projectId, BASE, await synthetic(200, 100, () => BLUE)),
        upload(projectId, SQUARE, await synthetic(20, 20, () => RED)),
        upload(projectId, 'marks/tall.png', await synthetic(20, 400, () => RED)),
        upload(projectId, 'rocket.jpg', await readTestImage('rocket.jpg')),
        upload(projectId, 'animated.gif', await readTestImage('no_time_for_that_tiny.gif')),
        upload(
          projectId,
          'first-frame.png',
          await sharp(await readTestImage('no_time_for_that_tiny.gif'))
            .png()
            .toBuffer(),
        ),
      ]);
    });
    after(() => t.close());

    it('places the overlay at bottom-right, offset inwards by x and y', async () => {
      const image = await pixels(`f=png&ov=${SQUARE}&ovg=bottom-right&ovx=10&ovy=5`);
      // 200×100 result, 20×20 overlay: columns 170–189, rows 75–94.
      assertAt(
        image,
        isRed,
        [
          [170, 75],
          [189, 94],
          [180, 85],
        ],
        'inside',
      );
      assertAt(
        image,
        isBlue,
        [
          [169, 85],
          [190, 85],
          [180, 74],
          [180, 95],
          [199, 99],
          [0, 0],
        ],
        'outside',
      );
    });

    it('centres the overlay by default, and offsets from the centre push right and down', async () => {
      assert.deepEqual(
        redColumns(await pixels(`f=png&ov=${SQUARE}`), 50),
        Array.from({ length: 20 }, (_, i) => 90 + i),
      );
      const moved = await pixels(`f=png&ov=${SQUARE}&ovx=-30&ovy=20`);
      assert.deepEqual(
        redColumns(moved, 75),
        Array.from({ length: 20 }, (_, i) => 60 + i),
      );
      // Rows 60–79: centred at 40, then 20 down.
      assert.ok(isBlue(moved, 70, 59) && isRed(moved, 70, 60) && isRed(moved, 70, 79) && isBlue(moved, 70, 80));
    });

    it('an overlay pushed partly off the result is cut at the edge', async () => {
      const image = await pixels(`f=png&ov=${SQUARE}&ovg=top-left&ovx=-10&ovy=-10`);
      assert.deepEqual(
        redColumns(image, 0),
        Array.from({ length: 10 }, (_, i) => i),
      );
      assert.ok(isBlue(image, 0, 10));
    });

    it("overlayScale sizes the overlay as a percentage of the result's width", async () => {
      const image = await pixels(`w=200&f=png&ov=${SQUARE}&ovg=top-left&ovs=25`);
      assert.equal(redColumns(image, 25).length, 50);
      assert.ok(isRed(image, 25, 49) && isBlue(image, 25, 50), 'square: 50 rows too');
      const half = await pixels(`w=100&f=png&ov=${SQUARE}&ovg=top-left&ovs=25`);
      assert.equal(redColumns(half, 10).length, 25, 'relative to the result, not the original');
    });

    it('an overlay larger than the result is shrunk to fit inside it', async () => {
      const image = await pixels(`f=png&ov=marks/tall.png&ovg=top-left&ovs=100`);
      assert.deepEqual([image.width, image.height], [200, 100]);
      assert.equal(redColumns(image, 50).length, 5, '20×400 fitted into 100 rows is 5×100');
      assert.ok(isRed(image, 2, 99));
    });

    it('opacity 50 blends the overlay about halfway into the result', async () => {
      const image = await pixels(`f=png&ov=${SQUARE}&ovo=50`);
      const [r, g, b] = pixel(image, 100, 50);
      assert.ok(Math.abs(r - 128) <= 6 && g <= 4 && Math.abs(b - 128) <= 6, `${r},${g},${b}`);
      assert.ok(isBlue(await pixels(`f=png&ov=${SQUARE}&ovo=0`), 100, 50), 'opacity 0 leaves the result as it was');
    });

    it('tiling repeats the overlay over the whole result, spacing apart', async () => {
      // 20 px squares every 40 px from the top-left corner.
      const image = await pixels(`f=png&ov=${SQUARE}&ovt=1&ovsp=20&ovg=top-left`);
      assertAt(
        image,
        isRed,
        [
          [10, 10],
          [50, 10],
          [170, 50],
          [90, 90],
          [179, 99],
        ],
        'tile',
      );
      assertAt(
        image,
        isBlue,
        [
          [30, 10],
          [10, 30],
          [70, 70],
          [190, 30],
          [199, 99],
        ],
        'gap',
      );
      const whole = await pixels(`f=png&ov=${SQUARE}&overlayTile=true`);
      assertAt(
        whole,
        isRed,
        [
          [0, 0],
          [199, 99],
          [100, 50],
          [37, 81],
        ],
        'without spacing the tiles cover everything',
      );
    });

    it('applies before pad and radius: rounded corners cut the overlay too', async () => {
      const image = await pixels(`f=png&ov=${SQUARE}&ovg=top-left&ovs=20&radius=30`);
      assert.equal(pixel(image, 0, 0)[3], 0, 'corner cut');
      assert.ok(isRed(image, 30, 30));
    });

    it('keeps JPEG outputs opaque', async () => {
      const answer = await cdn('rocket.jpg', `w=200&ov=${SQUARE}&ovg=top-left`);
      assert.equal(answer.headers.get('content-type'), 'image/jpeg');
      const image = await decode(answer.body);
      assert.equal(image.channels, 3);
      assert.ok(isRed(image, 10, 10));
    });

    it('an image may be its own overlay', async () => {
      const image = await pixels(`w=200&f=png&ov=rocket.jpg&ovs=50&ovg=top-left`, 'rocket.jpg');
      const plain = await pixels('w=100&f=png', 'rocket.jpg');
      assert.deepEqual([image.width, plain.width], [200, 100]);
      assert.ok(near(pixel(image, 50, 30), pixel(plain, 50, 30), 12), 'the top-left quarter is the image at half size');
    });

    it('an animated overlay gives its first frame', async () => {
      const animated = await pixels('f=png&ov=animated.gif&ovg=top-left');
      const still = await pixels('f=png&ov=first-frame.png&ovg=top-left');
      assert.deepEqual(animated.data, still.data);
    });

    it('a preset may carry an overlay, and the URL overrides its settings', async () => {
      const created = await t.request('POST', `/api/images/projects/${projectId}/presets`, {
        body: { name: 'marked', transforms: { format: 'png', overlay: SQUARE, overlayGravity: 'top-left', overlayX: 4, overlayY: 4 } },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const preset = await pixels('t=marked');
      assert.ok(isRed(preset, 4, 4) && isBlue(preset, 3, 3) && isBlue(preset, 190, 90));
      const overridden = await pixels('t=marked&ovg=bottom-right');
      assert.ok(isBlue(overridden, 10, 10) && isRed(overridden, 190, 90));
    });

    it('replacing the overlay image renews every variant it marks: new pixels, new ETag', async () => {
      await upload(projectId, 'marks/swap.png', await synthetic(20, 20, () => RED));
      const query = 'f=png&ov=marks/swap.png&ovg=top-left';
      const before = await cdn(BASE, query);
      assert.ok(isRed(await decode(before.body), 5, 5));
      assert.equal((await cdn(BASE, query)).headers.get('x-cache'), 'hit');

      await upload(projectId, 'marks/swap.png', await synthetic(20, 20, () => GREEN));
      const after = await cdn(BASE, query);
      assert.equal(after.status, 200);
      assert.equal(after.headers.get('x-cache'), 'miss');
      assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
      assert.ok(near(pixel(await decode(after.body), 5, 5), GREEN, 12));
    });

    it('a missing overlay is 400 naming the parameter, and nothing is served', async () => {
      const body = await refused('ov=marks/none.png');
      assert.equal(body.code, 'validation_failed');
      assert.equal(body.error, 'No image at "marks/none.png" in this project to use as overlay.');
      assert.deepEqual(body.details, { fieldErrors: { ov: [body.error] }, formErrors: [] });
      assert.deepEqual(Object.keys((await refused('overlay=marks/none.png')).details.fieldErrors), ['overlay']);
    });

    it("another project's image is not usable, and reads exactly as a missing one", async () => {
      const other = await t.createWorkspace();
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Elsewhere' }, key: other.key });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      await uploadImage(t, other.key, project.body.id, 'secret.png', await synthetic(20, 20, () => GREEN));
      const sameWorkspace = await t.request('POST', '/api/images/projects', { body: { name: 'Sibling' } });
      await upload(sameWorkspace.body.id, 'sibling.png', await synthetic(20, 20, () => GREEN));

      for (const path of ['secret.png', 'sibling.png']) {
        const body = await refused(`ov=${path}`);
        assert.equal(body.error, `No image at "${path}" in this project to use as overlay.`);
      }
      for (const path of [`../${project.body.slug}/secret.png`, `/${project.body.slug}/secret.png`, 'https://example.com/a.png']) {
        assert.ok((await refused(`ov=${encodeURIComponent(path)}`)).details.fieldErrors.ov, path);
      }
    });

    it('refuses overlay settings without an overlay', async () => {
      const body = await refused('ovo=50');
      assert.deepEqual(body.details.fieldErrors, {
        ovo: ['overlayOpacity needs an overlay: set overlay to an image path of this project.'],
      });
      assert.deepEqual(Object.keys((await refused('overlayTile=true')).details.fieldErrors), ['overlayTile']);
    });

    // Each value against the parameter's range: in range is 200, outside or the wrong type is 400 on that name.
    const edges: [string, (string | number)[], (string | number)[]][] = [
      ['ovx', [0, 1, 8192, -8192], [8193, -8193, 1.5, 'left']],
      ['ovy', [0, 1, 8192, -8192], [8193, -8193, 0.5, 'top']],
      ['ovs', [1, 100], [0, 101, 50.5, 'half']],
      ['ovo', [0, 1, 100], [-1, 101, 0.5, 'opaque']],
      ['ovsp', [0, 1, 8192], [-1, 8193, 2.5, 'wide']],
      ['ovt', ['true', 'false', 1, 0], ['yes', 2]],
      ['ovg', ['center', 'top-right', 'left'], ['auto', 'face', 'middle', 1]],
      ['ov', [SQUARE], ['', 'a//b.png', 'a/../b.png', 'a\\b.png', 'x'.repeat(1025)]],
    ];
    for (const [name, good, bad] of edges) {
      it(`${name}: accepts ${good.join(', ')}; refuses ${bad.map((value) => String(value).slice(0, 12)).join(', ')}`, async () => {
        const base = name === 'ov' ? 'w=40&f=png' : `w=40&f=png&ov=${SQUARE}`;
        for (const value of good) {
          const answer = await cdn(BASE, `${base}&${name}=${encodeURIComponent(value)}`);
          assert.equal(answer.status, 200, `${name}=${value}: ${answer.body.toString('utf8').slice(0, 200)}`);
        }
        for (const value of bad) {
          const body = await refused(`${base}&${name}=${encodeURIComponent(value)}`);
          assert.equal(body.code, 'validation_failed');
          assert.ok(body.details.fieldErrors[name]?.length > 0, `${name}=${value}: ${JSON.stringify(body)}`);
        }
      });
    }

    it('presets take the same ranges, by long name', async () => {
      for (const transforms of [
        { overlay: SQUARE, overlayScale: 0 },
        { overlay: SQUARE, overlayOpacity: 101 },
        { overlay: SQUARE, overlayX: 8193 },
        { overlay: SQUARE, overlayTile: 'yes' },
        { overlay: '../b.png' },
        { overlay: 12 },
        { overlay: SQUARE, overlayGravity: 'face' },
      ]) {
        const answer = await t.request('POST', `/api/images/projects/${projectId}/presets`, { body: { name: 'bad', transforms } });
        assert.equal(answer.status, 400, JSON.stringify(transforms));
        assert.equal(answer.body.code, 'validation_failed');
      }
    });

    it('a signed URL covers the overlay parameters', async () => {
      const signing = `/api/images/projects/${projectId}/signing`;
      const enabled = await t.request('POST', signing, { body: { enabled: true, requireSignedUrls: true } });
      assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
      const url = await cdnUrl({
        baseUrl: t.url,
        project: slug,
        path: BASE,
        transforms: { format: 'png', overlay: SQUARE, overlayOpacity: 100 },
        sign: { secret: enabled.body.signingSecret },
      });
      assert.match(url, /&ov=marks%2Fred\.png&ovo=100&s=/);
      const signed = await fetch(url);
      assert.equal(signed.status, 200);
      assert.ok(isRed(await decode(Buffer.from(await signed.arrayBuffer())), 100, 50));
      for (const tampered of [url.replace('ovo=100', 'ovo=10'), url.replace('marks%2Fred.png', 'marks%2Ftall.png')]) {
        const answer = await fetch(tampered);
        assert.equal(answer.status, 403);
        assert.equal((await answer.json()).code, 'signature_invalid');
      }
      await t.request('POST', signing, { body: { requireSignedUrls: false } });
    });
  });
}
