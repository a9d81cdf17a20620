import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { signCdnPath } from '@loupe/contract';
import sharp from 'sharp';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { GPS_EXIF, metadataOf, photoWithGps } from '../transform/test-metadata.ts';
import { meanDifference } from '../transform/test-pixels.ts';

interface CdnAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

for (const dialect of testDialects()) {
  describe(`CDN metadata: privacy, ICC and ?meta (${dialect})`, () => {
    let t: TestServer;
    let project: { id: string; slug: string };
    let photo: Buffer;

    const upload = async (projectId: string, path: string, data: Buffer) => {
      const response = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: path, data }, { path }),
      });
      assert.equal(response.status, 201, await response.text());
    };
    const cdn = async (path: string, query = '', headers: Record<string, string> = {}, slug = project.slug): Promise<CdnAnswer> => {
      const response = await fetch(`${t.url}/cdn/${slug}/${path}${query ? `?${query}` : ''}`, { headers });
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };
    const ok = async (path: string, query = '', headers: Record<string, string> = {}) => {
      const answer = await cdn(path, query, headers);
      assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 300));
      return answer;
    };
    const keepMetadata = async (keep: boolean) => {
      const answer = await t.request('PATCH', `/api/images/projects/${project.id}`, { body: { keepMetadata: keep } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.keepMetadata, keep);
    };

    before(async () => {
      t = await startTestServer(dialect);
      const created = await t.request('POST', '/api/images/projects', { body: { name: 'Metadata' } });
      project = created.body;
      photo = await photoWithGps(await readTestImage('rocket.jpg'));
      const sideways = await sharp(await readTestImage('rocket.jpg'))
        .withExif(GPS_EXIF)
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer();
      await Promise.all([
        upload(project.id, 'gps.jpg', photo),
        upload(project.id, 'gps.png', await photoWithGps(await readTestImage('rocket.jpg'), 'png')),
        upload(project.id, 'sideways.jpg', sideways),
        upload(
          project.id,
          'p3.png',
          await sharp(await readTestImage('coffee.png'))
            .withIccProfile('p3')
            .png()
            .toBuffer(),
        ),
        upload(project.id, 'rocket.jpg', await readTestImage('rocket.jpg')),
        upload(project.id, 'anim.gif', await readTestImage('no_time_for_that_tiny.gif')),
        upload(
          project.id,
          'gps.avif',
          await photoWithGps(
            await sharp(await readTestImage('rocket.jpg'))
              .resize(96)
              .toBuffer(),
            'avif',
          ),
        ),
      ]);
    });
    after(() => t.close());

    describe('privacy by default', () => {
      for (const format of ['jpeg', 'webp', 'avif', 'png']) {
        it(`a ${format} output has no GPS, EXIF or XMP`, async () => {
          const answer = await ok('gps.jpg', `w=120&f=${format}`);
          assert.deepEqual(await metadataOf(answer.body), { gps: false, exif: false, xmp: false, icc: false, orientation: undefined });
        });
      }

      it('the original, asked for untransformed, loses GPS and XMP but not a pixel', async () => {
        const answer = await ok('gps.jpg');
        assert.equal(answer.headers.get('content-type'), 'image/jpeg');
        assert.deepEqual(await metadataOf(answer.body), { gps: false, exif: false, xmp: false, icc: false, orientation: undefined });
        assert.ok(answer.body.length < photo.length);
        assert.ok((await sharp(answer.body).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer()));
      });

      it('a PNG original loses its eXIf and XMP chunks', async () => {
        const answer = await ok('gps.png');
        assert.equal(answer.headers.get('content-type'), 'image/png');
        assert.equal((await metadataOf(answer.body)).gps, false);
        assert.equal((await metadataOf(answer.body)).xmp, false);
      });

      it('an AVIF original with metadata, which is not edited in place, is re-encoded without it', async () => {
        const answer = await ok('gps.avif');
        assert.equal(answer.headers.get('content-type'), 'image/avif');
        assert.deepEqual(await metadataOf(answer.body), { gps: false, exif: false, xmp: false, icc: false, orientation: undefined });
        const header = await sharp(answer.body).metadata();
        assert.deepEqual([header.width, header.height], [96, 64]);
      });

      it('a sideways original keeps its orientation and nothing else of its EXIF', async () => {
        const answer = await ok('sideways.jpg');
        // The photo's ICC profile stays too: it says what the pixels' numbers mean.
        assert.deepEqual(await metadataOf(answer.body), { gps: false, exif: true, xmp: false, icc: true, orientation: 6 });
        const header = await sharp(answer.body).metadata();
        assert.deepEqual([header.autoOrient.width, header.autoOrient.height], [427, 640]);
      });

      it('the image API still holds the uploaded original with its metadata (it is the user’s file)', async () => {
        const list = await t.request('GET', `/api/images/projects/${project.id}/images?prefix=gps.jpg`);
        assert.equal(list.body[0].fileSize, photo.length);
      });
    });

    describe('keepMetadata', () => {
      before(() => keepMetadata(true));
      after(() => keepMetadata(false));

      for (const format of ['jpeg', 'webp', 'avif', 'png']) {
        it(`a ${format} output keeps GPS, EXIF and XMP, with an sRGB profile`, async () => {
          const answer = await ok('gps.jpg', `w=120&f=${format}`);
          const { orientation, ...kept } = await metadataOf(answer.body);
          assert.deepEqual(kept, { gps: true, exif: true, xmp: true, icc: true });
          assert.equal(orientation ?? 1, 1);
        });
      }

      it('the original is served as stored, byte for byte', async () => {
        const answer = await ok('gps.jpg');
        assert.ok(answer.body.equals(photo));
      });

      it('flipping the setting changes the variant: never a stale one, either way', async () => {
        const kept = await ok('gps.jpg', 'w=90&f=webp');
        await keepMetadata(false);
        const stripped = await ok('gps.jpg', 'w=90&f=webp');
        await keepMetadata(true);
        const keptAgain = await ok('gps.jpg', 'w=90&f=webp');
        assert.notEqual(kept.headers.get('etag'), stripped.headers.get('etag'));
        assert.equal(kept.headers.get('etag'), keptAgain.headers.get('etag'));
        assert.equal((await metadataOf(kept.body)).gps, true);
        assert.equal((await metadataOf(stripped.body)).gps, false);
        assert.equal((await metadataOf(keptAgain.body)).gps, true);
      });
    });

    it('a Display P3 original comes out with the colours its profile says', async () => {
      const answer = await ok('p3.png', 'w=200&f=png');
      const coffee = await readTestImage('coffee.png');
      const got = await sharp(answer.body).removeAlpha().raw().toBuffer();
      const correct = await sharp(coffee).resize(200).removeAlpha().raw().toBuffer();
      const p3 = await sharp(coffee).withIccProfile('p3').png().toBuffer();
      const naive = await sharp(p3, { ignoreIcc: true }).resize(200).removeAlpha().raw().toBuffer();
      assert.ok(meanDifference(naive, correct) > 5);
      assert.ok(meanDifference(got, correct) < 1, `off by ${meanDifference(got, correct)}`);
    });

    it('a real Adobe RGB photo comes out converted by its profile', async () => {
      const answer = await ok('rocket.jpg', 'w=200&f=png');
      const rocket = await readTestImage('rocket.jpg');
      const got = await sharp(answer.body).removeAlpha().raw().toBuffer();
      const correct = await sharp(rocket).resize(200).toColourspace('srgb').removeAlpha().raw().toBuffer();
      const naive = await sharp(rocket, { ignoreIcc: true }).resize(200).removeAlpha().raw().toBuffer();
      assert.ok(meanDifference(naive, correct) > 2, `naive off by ${meanDifference(naive, correct)}`);
      assert.ok(meanDifference(got, correct) < 1, `off by ${meanDifference(got, correct)}`);
    });

    describe('?meta', () => {
      it('describes a real photo: size, format, frames, colour space, alpha, dominant colour, blurhash', async () => {
        const answer = await ok('rocket.jpg', 'meta');
        assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
        assert.ok(answer.headers.get('etag'));
        const info = JSON.parse(answer.body.toString('utf8'));
        // Over every pixel in sRGB (rocket.jpg's Adobe RGB numbers would give another colour).
        const srgb = await sharp(await readTestImage('rocket.jpg'))
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true });
        const { dominant } = await sharp(srgb.data, { raw: srgb.info }).stats();
        const hex = `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
        const image = (await t.request('GET', `/api/images/projects/${project.id}/images?prefix=rocket.jpg`)).body[0];
        assert.deepEqual(info, {
          width: 640,
          height: 427,
          format: 'jpeg',
          contentType: 'image/jpeg',
          frames: 1,
          colourSpace: 'srgb',
          // rocket.jpg is a real wide-gamut photo.
          iccProfile: { description: 'Adobe RGB (1998)' },
          hasAlpha: false,
          dominantColour: hex,
          blurhash: image.blurhash,
        });
        assert.match(info.blurhash, /^[0-9A-Za-z#$%*+,-.:;=?@[\]^_{|}~]{20,}$/);
      });

      it('meta=json is the same answer; another value is 400', async () => {
        const plain = await ok('rocket.jpg', 'meta');
        const json = await ok('rocket.jpg', 'meta=json');
        assert.deepEqual(JSON.parse(json.body.toString()), JSON.parse(plain.body.toString()));
        const bad = await cdn('rocket.jpg', 'meta=xml');
        assert.equal(bad.status, 400);
        assert.equal(JSON.parse(bad.body.toString()).code, 'validation_failed');
        assert.ok(JSON.parse(bad.body.toString()).details.fieldErrors.meta);
        assert.equal((await cdn('rocket.jpg', 'meta&meta=json')).status, 400);
      });

      it('counts the frames of an animated GIF', async () => {
        const info = JSON.parse((await ok('anim.gif', 'meta')).body.toString());
        assert.equal(info.format, 'gif');
        assert.ok(info.frames > 1);
        assert.equal(info.frames, (await sharp(await readTestImage('no_time_for_that_tiny.gif')).metadata()).pages);
      });

      it('gives the displayed size of a sideways photo, and names an ICC profile', async () => {
        const sideways = JSON.parse((await ok('sideways.jpg', 'meta')).body.toString());
        assert.deepEqual([sideways.width, sideways.height], [427, 640]);
        const p3 = JSON.parse((await ok('p3.png', 'meta')).body.toString());
        assert.deepEqual(p3.iccProfile, { description: 'sP3C' });
      });

      it('with transforms, adds what the same URL without meta serves', async () => {
        const info = JSON.parse((await ok('rocket.jpg', 'meta&w=200&f=webp')).body.toString());
        const served = await ok('rocket.jpg', 'w=200&f=webp');
        assert.deepEqual(info.output, { width: 200, height: 133, format: 'webp', contentType: 'image/webp', size: served.body.length });
        assert.equal(info.width, 640);
        const jxl = JSON.parse((await ok('rocket.jpg', 'meta&w=100&f=jxl')).body.toString());
        const png = await sharp((await ok('rocket.jpg', 'w=100&f=png')).body).metadata();
        assert.deepEqual([jxl.output.width, jxl.output.height, jxl.output.format], [png.width, png.height, 'jxl']);
      });

      it('follows format=auto with Vary: Accept', async () => {
        const answer = await ok('rocket.jpg', 'meta&w=100&f=auto', { accept: 'image/avif,image/webp' });
        assert.equal(answer.headers.get('vary'), 'Accept');
        assert.equal(JSON.parse(answer.body.toString()).output.format, 'avif');
      });

      it('answers 304 to its own ETag', async () => {
        const first = await ok('rocket.jpg', 'meta&w=150');
        const again = await cdn('rocket.jpg', 'meta&w=150', { 'if-none-match': first.headers.get('etag') as string });
        assert.equal(again.status, 304);
        assert.equal(again.headers.get('x-cache'), 'hit');
      });

      it('is 404 for an image that does not exist', async () => {
        assert.equal((await cdn('nope.jpg', 'meta')).status, 404);
      });

      it('works on a custom domain', async () => {
        const domain = `meta-${project.id.slice(0, 8).toLowerCase()}.example.test`;
        const patched = await t.request('PATCH', `/api/images/projects/${project.id}`, { body: { customDomain: domain } });
        assert.equal(patched.status, 200, JSON.stringify(patched.body));
        const { hostname, port } = new URL(t.url);
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const outgoing = httpRequest({ host: hostname, port, path: '/rocket.jpg?meta', headers: { host: domain } }, (incoming) => {
            let body = '';
            incoming.on('data', (chunk) => {
              body += chunk;
            });
            incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
          });
          outgoing.on('error', reject);
          outgoing.end();
        });
        assert.equal(answer.status, 200, answer.body);
        assert.equal(JSON.parse(answer.body).width, 640);
      });

      it('needs a signature on a project that requires them, and takes a valid one', async () => {
        const signed = (await t.request('POST', '/api/images/projects', { body: { name: 'Signed metadata' } })).body;
        await upload(signed.id, 'rocket.jpg', await readTestImage('rocket.jpg'));
        const enabled = await t.request('POST', `/api/images/projects/${signed.id}/signing`, {
          body: { enabled: true, requireSignedUrls: true },
        });
        assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
        const secret = enabled.body.signingSecret as string;
        assert.equal((await cdn('rocket.jpg', 'meta', {}, signed.slug)).status, 403);
        const signature = await signCdnPath(secret, signed.slug, 'rocket.jpg', { meta: '' });
        assert.equal((await cdn('rocket.jpg', `meta&s=${signature}`, {}, signed.slug)).status, 200);
        // A signature for the image does not open its facts, nor the other way round.
        const forImage = await signCdnPath(secret, signed.slug, 'rocket.jpg', {});
        assert.equal((await cdn('rocket.jpg', `meta&s=${forImage}`, {}, signed.slug)).status, 403);
        assert.equal((await cdn('rocket.jpg', `s=${signature}`, {}, signed.slug)).status, 403);
      });
    });
  });
}
