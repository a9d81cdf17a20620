import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { stripMetadata } from './strip-metadata.ts';
import { GPS_EXIF, metadataOf, photoWithGps } from './test-metadata.ts';
import { testImage } from './test-pixels.ts';

const photo = testImage('rocket.jpg');
const samePixels = async (a: Buffer, b: Buffer) => (await sharp(a).raw().toBuffer()).equals(await sharp(b).raw().toBuffer());

describe('stripMetadata', () => {
  for (const format of ['jpeg', 'png', 'webp'] as const) {
    it(`removes GPS, EXIF fields and XMP from a ${format} photo without touching its pixels`, async () => {
      const original = await photoWithGps(photo, format);
      assert.deepEqual(await metadataOf(original), { gps: true, exif: true, xmp: true, icc: false, orientation: 1 });
      const stripped = stripMetadata(original, format) as Buffer;
      assert.deepEqual(await metadataOf(stripped), { gps: false, exif: false, xmp: false, icc: false, orientation: undefined });
      assert.ok(await samePixels(original, stripped));
    });

    it(`keeps a ${format} photo's EXIF orientation, as the only EXIF tag, and its ICC profile`, async () => {
      const original = await sharp(photo)
        .withExif(GPS_EXIF)
        .withMetadata({ orientation: 6 })
        .withIccProfile('p3')
        .toFormat(format)
        .toBuffer();
      assert.equal((await metadataOf(original)).gps, true);
      const stripped = stripMetadata(original, format, 6) as Buffer;
      assert.deepEqual(await metadataOf(stripped), { gps: false, exif: true, xmp: false, icc: true, orientation: 6 });
      const header = await sharp(stripped).metadata();
      assert.deepEqual([header.autoOrient.width, header.autoOrient.height], [427, 640], 'still shown upright');
      assert.ok(await samePixels(original, stripped));
    });
  }

  it('drops a JPEG comment and what follows the image (a phone’s appended gain or depth map)', async () => {
    const original = await sharp(photo).jpeg().toBuffer();
    const withComment = Buffer.concat([
      original.subarray(0, 2),
      Buffer.from([0xff, 0xfe, 0x00, 0x0b]),
      Buffer.from('Secret!!!', 'latin1'),
      original.subarray(2),
      Buffer.from('appended'),
    ]);
    const stripped = stripMetadata(withComment, 'jpeg') as Buffer;
    assert.ok(!stripped.includes('Secret!!!') && !stripped.includes('appended'));
    assert.ok(stripped.equals(original));
  });

  it('keeps a GIF’s frames and loop, and drops its comments and XMP', async () => {
    const gif = testImage('no_time_for_that_tiny.gif');
    const at = 13 + 3 * 2 ** (((gif[10] as number) & 7) + 1);
    const comment = Buffer.concat([Buffer.from([0x21, 0xfe, 5]), Buffer.from('hello'), Buffer.from([0])]);
    const xmp = Buffer.concat([
      Buffer.from([0x21, 0xff, 11]),
      Buffer.from('XMP DataXMP'),
      Buffer.from([3]),
      Buffer.from('abc'),
      Buffer.from([0]),
    ]);
    const dressed = Buffer.concat([gif.subarray(0, at), comment, xmp, gif.subarray(at)]);
    const stripped = stripMetadata(dressed, 'gif') as Buffer;
    assert.ok(stripped.equals(gif));
    const header = await sharp(stripped, { pages: -1 }).metadata();
    assert.equal(header.pages, 24);
    assert.equal(header.loop, (await sharp(gif).metadata()).loop);
  });

  it('leaves a simple WebP (no extended header, so no metadata) as it is', async () => {
    const webp = await sharp(photo).webp().toBuffer();
    assert.equal(stripMetadata(webp, 'webp'), webp);
  });

  it('gives up on formats it does not edit, and on damaged bytes', async () => {
    assert.equal(stripMetadata(await photoWithGps(await sharp(photo).resize(64).toBuffer(), 'avif'), 'avif'), undefined);
    const jpeg = await photoWithGps(photo);
    assert.equal(stripMetadata(jpeg.subarray(0, 300), 'jpeg'), undefined);
    assert.equal(stripMetadata(Buffer.from('not an image'), 'png'), undefined);
  });
});
