import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { iccDescription } from './icc-description.ts';
import { encodeJxl } from './jxl-encoder.ts';
import { jxlCodestreamSize } from './jxl-size.ts';
import { metadataOf, photoWithGps } from './test-metadata.ts';
import { meanDifference, options, testImage } from './test-pixels.ts';
import { type OutputFormat, transformImage } from './transform-pipeline.ts';

const rgb = (image: Buffer) => sharp(image).removeAlpha().raw().toBuffer();

describe('metadata in the transform pipeline', () => {
  const formats: OutputFormat[] = ['jpeg', 'png', 'webp', 'avif'];

  for (const format of formats) {
    it(`a ${format} output carries no EXIF, GPS, XMP or ICC profile by default`, async () => {
      const original = await photoWithGps(testImage('rocket.jpg'));
      const output = await transformImage(original, { width: 120, format }, options);
      assert.deepEqual(await metadataOf(output.data), { gps: false, exif: false, xmp: false, icc: false, orientation: undefined });
    });

    it(`a ${format} output keeps GPS, EXIF and XMP with keepMetadata, tagged sRGB, with the same pixels`, async () => {
      const original = await photoWithGps(testImage('rocket.jpg'));
      const kept = await transformImage(original, { width: 120, format }, { ...options, keepMetadata: true });
      const plain = await transformImage(original, { width: 120, format }, options);
      const { orientation, ...metadata } = await metadataOf(kept.data);
      assert.deepEqual(metadata, { gps: true, exif: true, xmp: true, icc: true });
      assert.equal(orientation ?? 1, 1);
      const { icc } = await sharp(kept.data).metadata();
      assert.equal(iccDescription(icc as Buffer), 'sRGB', 'the pixels were converted to sRGB');
      assert.deepEqual([kept.width, kept.height], [plain.width, plain.height]);
      assert.ok(meanDifference(await rgb(kept.data), await rgb(plain.data)) < 1.5);
    });
  }

  it('keepMetadata resets the EXIF orientation of a sideways photo, its pixels being upright', async () => {
    const sideways = await sharp(testImage('rocket.jpg')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const output = await transformImage(sideways, { width: 100, format: 'jpeg' }, { ...options, keepMetadata: true });
    const header = await sharp(output.data).metadata();
    assert.deepEqual([header.width, header.height, header.orientation], [100, 150, 1]);
  });

  it('keepMetadata flattens a transparent image on bg for JPEG', async () => {
    const transparent = await sharp({ create: { width: 20, height: 20, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0 } } })
      .png()
      .toBuffer();
    const output = await transformImage(transparent, { format: 'jpeg', bg: 'ff0000' }, { ...options, keepMetadata: true });
    const [r, g, b] = await sharp(output.data).raw().toBuffer();
    assert.ok((r as number) > 240 && (g as number) < 15 && (b as number) < 15, `${r},${g},${b}`);
  });

  it('a Display P3 photo comes out in sRGB as the profile says, not as its raw numbers', async () => {
    const photo = testImage('coffee.png');
    const p3 = await sharp(photo).withIccProfile('p3').png().toBuffer();
    const output = await transformImage(p3, { width: 200, format: 'png' }, options);
    const correct = await sharp(photo).resize(200).removeAlpha().raw().toBuffer();
    const naive = await sharp(p3, { ignoreIcc: true }).resize(200).removeAlpha().raw().toBuffer();
    const got = await rgb(output.data);
    assert.ok(meanDifference(naive, correct) > 5, 'the test image is colourful enough to tell');
    assert.ok(meanDifference(got, correct) < 1, `off by ${meanDifference(got, correct)}`);
    assert.equal((await sharp(output.data).metadata()).icc, undefined, 'untagged, which means sRGB');
  });

  it('names an ICC profile by its description tag (v2 desc and v4 mluc)', async () => {
    const names: Record<string, string | null> = {};
    for (const profile of ['srgb', 'p3', 'cmyk']) {
      const tagged = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#808080' } })
        .withIccProfile(profile)
        .jpeg()
        .toBuffer();
      names[profile] = iccDescription((await sharp(tagged).metadata()).icc as Buffer);
    }
    // libvips' own profiles: a compact sRGB, a compact Display P3 ("sP3C"), and a CMYK proof profile.
    assert.deepEqual(names, { srgb: 'sRGB', p3: 'sP3C', cmyk: 'Chemical proof' });
    assert.equal(iccDescription(Buffer.alloc(10)), null);
  });

  it('reads the size of a JPEG XL codestream, for ?meta', async () => {
    for (const [width, height] of [
      [37, 23],
      [64, 48],
      [200, 150],
      [160, 90],
      [1000, 7],
    ]) {
      const data = Buffer.alloc(width * height * 4, 128);
      const jxl = await encodeJxl({ data, width, height, channels: 4 }, 80);
      assert.deepEqual(jxlCodestreamSize(jxl), { width, height });
    }
    assert.equal(jxlCodestreamSize(Buffer.from('not jxl at all')), undefined);
  });
});
