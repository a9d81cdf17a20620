import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { animationFromPhoto, decodeFrames, markerColour } from '../transform/test-animation.ts';
import { near, pixel } from '../transform/test-pixels.ts';

/** Animated originals over HTTP (issue #26, point 1), checked frame by frame. */
for (const dialect of testDialects()) {
  describe(`CDN animation (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;
    let delay: number[];

    const upload = (name: string, data: Buffer) =>
      fetch(`${t.url}/api/images/projects/${projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name, data }, { path: name }),
      });
    const cdn = async (path: string, query: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${t.url}/cdn/${slug}/${path}?${query}`, { headers });
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };
    const frames = async (path: string, query: string, headers: Record<string, string> = {}) => {
      const answer = await cdn(path, query, headers);
      assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
      return { ...(await decodeFrames(answer.body)), headers: answer.headers };
    };
    /** Frame i shows markerColour(i) at (x, y), for every frame. */
    const assertMarkers = (
      decoded: { frames: { data: Buffer; width: number; height: number; channels: number }[] },
      x: number,
      y: number,
    ) => {
      decoded.frames.forEach((frame, index) => {
        assert.ok(near(pixel(frame, x, y).slice(0, 3), markerColour(index), 24), `frame ${index}: ${pixel(frame, x, y)}`);
      });
    };

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Animation' } });
      projectId = project.body.id;
      slug = project.body.slug;
      const rocket = await readTestImage('rocket.jpg');
      const gif = await animationFromPhoto(rocket, { frames: 24, width: 120, height: 80, format: 'gif', loop: 3 });
      const webp = await animationFromPhoto(await readTestImage('chelsea.png'), { frames: 12, width: 100, height: 100, format: 'webp' });
      delay = gif.delay;
      for (const [name, data] of [
        ['anim.gif', gif.data],
        ['anim.webp', webp.data],
        ['rocket.jpg', rocket],
      ] as const) {
        const answer = await upload(name, data);
        assert.equal(answer.status, 201, await answer.text());
      }
    });
    after(() => t.close());

    it('a 24-frame GIF at w=60 stays a 24-frame GIF, with its delays, loop count and frames in order', async () => {
      const decoded = await frames('anim.gif', 'w=60');
      assert.equal(decoded.headers.get('content-type'), 'image/gif');
      assert.deepEqual([decoded.format, decoded.pages, decoded.width, decoded.pageHeight], ['gif', 24, 60, 40]);
      assert.deepEqual(decoded.delay, delay);
      assert.equal(decoded.loop, 3);
      assertMarkers(decoded, 5, 5);
      // Outside the marker each frame is its own crop of the photo.
      assert.notDeepEqual(pixel(decoded.frames[0]!, 50, 30), pixel(decoded.frames[5]!, 50, 30));
    });

    it('f=webp makes an animated WebP; a WebP original stays animated in its own format', async () => {
      const asWebp = await frames('anim.gif', 'w=60&f=webp');
      assert.deepEqual([asWebp.format, asWebp.pages, asWebp.pageHeight, asWebp.delay], ['webp', 24, 40, delay]);
      assertMarkers(asWebp, 5, 5);
      const webp = await frames('anim.webp', 'w=50');
      assert.deepEqual([webp.format, webp.pages, webp.width, webp.pageHeight], ['webp', 12, 50, 50]);
      assertMarkers(webp, 5, 5);
    });

    it('f=auto keeps the animation: WebP when named, else GIF, never AVIF or JPEG; Vary: Accept', async () => {
      const modern = await frames('anim.gif', 'w=60&f=auto', { accept: 'image/avif,image/webp,*/*' });
      assert.deepEqual([modern.format, modern.pages], ['webp', 24]);
      assert.match(modern.headers.get('vary') ?? '', /accept/i);
      const plain = await frames('anim.gif', 'w=60&f=auto', { accept: 'image/avif,*/*' });
      assert.deepEqual([plain.format, plain.pages], ['gif', 24]);
      const still = await frames('rocket.jpg', 'w=60&f=auto', { accept: 'image/webp' });
      assert.deepEqual([still.format, still.pages], ['webp', 1]);
    });

    it('frame=N takes one frame as a still; a still format takes the first', async () => {
      const poster = await frames('anim.gif', 'frame=6&f=png');
      assert.deepEqual([poster.format, poster.pages, poster.width, poster.pageHeight], ['png', 1, 120, 80]);
      assert.ok(near(pixel(poster.frames[0]!, 10, 10).slice(0, 3), markerColour(5), 24));
      const own = await frames('anim.gif', 'frame=24&w=60');
      assert.deepEqual([own.format, own.pages], ['gif', 1]);
      assert.ok(near(pixel(own.frames[0]!, 5, 5).slice(0, 3), markerColour(23), 24));
      const jpeg = await frames('anim.gif', 'w=60&f=jpeg');
      assert.deepEqual([jpeg.format, jpeg.pages], ['jpeg', 1]);
      assert.ok(near(pixel(jpeg.frames[0]!, 5, 5).slice(0, 3), markerColour(0), 24));
    });

    it('frame beyond the count, 0 or not a number is 400 naming frame', async () => {
      for (const [path, query, says] of [
        ['anim.gif', 'frame=25', /24 frames/],
        ['rocket.jpg', 'frame=2', /1 frame\b/],
        ['anim.gif', 'frame=0', /./],
        ['anim.gif', 'frame=x', /./],
      ] as const) {
        const answer = await cdn(path, query);
        assert.equal(answer.status, 400, `${query}: ${answer.body}`);
        const body = JSON.parse(answer.body.toString('utf8'));
        assert.equal(body.code, 'validation_failed');
        assert.match(body.details.fieldErrors.frame[0], says);
      }
      const first = await frames('rocket.jpg', 'frame=1&w=30');
      assert.equal(first.width, 30);
    });

    it('rotate, flip, crop by saliency, radius and pad apply to every frame, in order', async () => {
      const turned = await frames('anim.gif', 'w=40&rotate=90&f=webp');
      assert.deepEqual([turned.pages, turned.width, turned.pageHeight], [24, 40, 60]);
      assertMarkers(turned, 35, 5); // the top-left marker is now top-right
      const flipped = await frames('anim.gif', 'w=60&flip=v&f=webp');
      assertMarkers(flipped, 5, 35); // …and bottom-left
      const cropped = await frames('anim.gif', 'w=50&h=50&g=auto&f=webp');
      assert.deepEqual([cropped.pages, cropped.width, cropped.pageHeight], [24, 50, 50]);
      const rounded = await frames('anim.gif', 'w=60&radius=15&f=webp');
      for (const frame of rounded.frames) {
        assert.ok((pixel(frame, 0, 0)[3] as number) < 16, 'corner transparent');
        assert.ok((pixel(frame, 30, 20)[3] as number) > 240, 'middle opaque');
      }
      assertMarkers(rounded, 10, 10);
      const padded = await frames('anim.gif', 'w=60&h=60&fit=pad&bg=ffffff&f=webp');
      assert.deepEqual([padded.pages, padded.pageHeight], [24, 60]);
      for (const frame of padded.frames) assert.ok(near(pixel(frame, 30, 2).slice(0, 3), [255, 255, 255], 12));
      assertMarkers(padded, 5, 15);
    });

    it('an overlay marks every frame of an animation', async () => {
      const mark = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#ff00ff' } })
        .png()
        .toBuffer();
      assert.equal((await upload('mark.png', mark)).status, 201);
      const marked = await frames('anim.gif', 'w=60&f=webp&ov=mark.png&ovg=bottom-right');
      assert.equal(marked.pages, 24);
      for (const frame of marked.frames) assert.ok(near(pixel(frame, 55, 35).slice(0, 3), [255, 0, 255], 24), `${pixel(frame, 55, 35)}`);
      assertMarkers(marked, 5, 5);
    });

    it('an image stored before frames were counted (frames null) has them read from its header', async () => {
      const answer = await upload(
        'before-0036.gif',
        (await animationFromPhoto(await readTestImage('rocket.jpg'), { frames: 5, width: 40, height: 30, format: 'gif' })).data,
      );
      assert.equal(answer.status, 201);
      await t.server.database.db.updateTable('images').set({ frames: null }).where('path', '=', 'before-0036.gif').execute();
      const decoded = await frames('before-0036.gif', 'w=20&f=auto');
      assert.deepEqual([decoded.format, decoded.pages, decoded.pageHeight], ['gif', 5, 15]);
      assert.equal((await cdn('before-0036.gif', 'frame=6')).status, 400);
    });

    it('refuses an animation bomb with animation_too_large before decoding it, and keeps a poster of it', async () => {
      // 24 frames of 2000×1333: 64 Mpx of frames, over the default 50 Mpx.
      const answer = await cdn('anim.gif', 'w=2000');
      assert.equal(answer.status, 400);
      const body = JSON.parse(answer.body.toString('utf8'));
      assert.equal(body.code, 'animation_too_large');
      assert.equal(body.limit, 50_000_000);
      assert.deepEqual(body.requested, { frames: 24, width: 2000, height: 1333, pixels: 24 * 2000 * 1333 });
      const poster = await frames('anim.gif', 'w=2000&frame=1&f=jpeg');
      assert.deepEqual([poster.pages, poster.width], [1, 2000]);
    });

    it('a client hint that would make the animation too large falls back to the URL size', async () => {
      const changed = await t.request('PATCH', `/api/images/projects/${projectId}`, { body: { clientHints: true } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      // 24 frames at w=600 is 24 × 600 × 400 = 5.8 Mpx; DPR 3 would be 52 Mpx, over the 50 Mpx bound.
      const hinted = await frames('anim.gif', 'w=600&f=webp', { 'sec-ch-dpr': '3' });
      assert.deepEqual([hinted.pages, hinted.width], [24, 600]);
      const doubled = await frames('anim.gif', 'w=300&f=webp', { 'sec-ch-dpr': '2' });
      assert.deepEqual([doubled.pages, doubled.width], [24, 600]);
      await t.request('PATCH', `/api/images/projects/${projectId}`, { body: { clientHints: false } });
    });

    it('refuses to store an animation whose frames exceed the bound, from its header', async () => {
      // 600 frames of 300×300 (54 Mpx): each frame small, the whole over 50 Mpx.
      const frame = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } })
        .raw()
        .toBuffer();
      const stack = Buffer.concat(Array.from({ length: 600 }, () => frame));
      const bomb = await sharp(stack, { raw: { width: 300, height: 300 * 600, channels: 3, pageHeight: 300 }, animated: true })
        .gif({ effort: 1, keepDuplicateFrames: true })
        .toBuffer();
      const answer = await upload('bomb.gif', bomb);
      assert.equal(answer.status, 413);
      assert.match(((await answer.json()) as { error: string }).error, /600 frames/);
    });
  });
}
