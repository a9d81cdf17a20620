import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp, { type Sharp } from 'sharp';
import { ssim } from 'ssim.js';
import { AVIF_EFFORT, defaultQuality } from './encode-output.ts';
import { ImageDecodeError } from './image-decode-error.ts';
import { encodeJxl } from './jxl-encoder.ts';
import { findQualityForMode, type QualityMode, qualityTargets } from './perceptual-quality.ts';
import { testImage } from './test-pixels.ts';

const options = { maxInputPixels: 50_000_000 };
const modes: QualityMode[] = ['high', 'medium', 'low'];
type ScoredFormat = 'jpeg' | 'webp' | 'avif';

/**
 * The SSIM of `input` encoded at `quality`, measured here without the module: sharp encodes
 * straight from the 512-px copy, and both sides are flattened on white, as a page shows them.
 */
async function scoreAt(input: Buffer, format: ScoredFormat, quality: number): Promise<number> {
  const sample = () => sharp(input).resize(512, 512, { fit: 'inside', withoutEnlargement: true });
  const encoders: Record<ScoredFormat, (image: Sharp) => Sharp> = {
    jpeg: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality }),
    webp: (image) => image.webp({ quality }),
    avif: (image) => image.avif({ quality, effort: AVIF_EFFORT }),
  };
  const encoded = await encoders[format](sample()).toBuffer();
  const [reference, decoded] = await Promise.all([opaqueRgba(sample()), opaqueRgba(sharp(encoded))]);
  return ssim(reference, decoded, { ssim: 'bezkrovny', downsample: false }).mssim;
}

async function opaqueRgba(image: Sharp): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const { data, info } = await image.flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** A smooth 512×384 colour ramp: little for an encoder to lose. */
function gradient(): Promise<Buffer> {
  const width = 512;
  const height = 384;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([x / 2, y / 1.5, 128], (y * width + x) * 3);
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe('quality for a perceptual mode', () => {
  for (const format of ['jpeg', 'webp'] as const) {
    it(`asks a ${format} encoder for at least as much quality at a higher mode`, async () => {
      const photo = testImage('rocket.jpg');
      const [high, medium, low] = await Promise.all(modes.map((mode) => findQualityForMode(photo, format, mode, options)));

      assert.ok(high >= medium && medium >= low, `high ${high}, medium ${medium}, low ${low}`);
    });

    it(`finds the lowest ${format} quality that reaches each mode's SSIM, give or take one`, async () => {
      const photo = testImage('coffee.png');
      for (const mode of modes) {
        const quality = await findQualityForMode(photo, format, mode, options);

        const target = qualityTargets[mode];
        const found = await scoreAt(photo, format, quality);
        assert.ok(found >= target, `${mode}: quality ${quality} scores ${found.toFixed(4)} < ${target}`);
        // Six halvings of 1–100 leave the answer at the minimum or one above it.
        const lower = await scoreAt(photo, format, quality - 2);
        assert.ok(lower < target, `${mode}: quality ${quality - 2} already scores ${lower.toFixed(4)} ≥ ${target}`);
      }
    });
  }

  it('asks less of a smooth gradient than of a detailed photo at the same mode', async () => {
    const [smooth, detailed] = await Promise.all([
      findQualityForMode(await gradient(), 'jpeg', 'medium', options),
      findQualityForMode(testImage('hubble_deep_field.jpg'), 'jpeg', 'medium', options),
    ]);

    assert.ok(smooth < detailed, `gradient ${smooth}, hubble_deep_field.jpg ${detailed}`);
  });

  it('finds an AVIF quality that reaches the mode’s SSIM', async () => {
    const photo = testImage('chelsea.png');
    const quality = await findQualityForMode(photo, 'avif', 'medium', options);

    assert.ok(Number.isInteger(quality) && quality >= 1 && quality <= 100, `quality ${quality}`);
    const found = await scoreAt(photo, 'avif', quality);
    assert.ok(found >= qualityTargets.medium, `quality ${quality} scores ${found.toFixed(4)}`);
  });

  it('finds JPEG XL qualities with the encoder it is given, decoding them with libjxl', async () => {
    const photo = testImage('chelsea.png');
    const withEncoder = { ...options, encodeJxl };
    const high = await findQualityForMode(photo, 'jxl', 'high', withEncoder);
    const low = await findQualityForMode(photo, 'jxl', 'low', withEncoder);

    assert.ok(high > low && low >= 1 && high <= 100, `high ${high}, low ${low}`);
  });

  it('refuses JPEG XL without an encoder', async () => {
    await assert.rejects(findQualityForMode(testImage('chelsea.png'), 'jxl', 'medium', options), /encodeJxl/);
  });

  it('gives an image too small to score the format’s default quality', async () => {
    const tiny = testImage('no_time_for_that_tiny.gif');

    assert.equal(await findQualityForMode(tiny, 'webp', 'high', options), defaultQuality.webp);
  });

  it('refuses an original it cannot decode', async () => {
    await assert.rejects(findQualityForMode(testImage('truncated.jpg'), 'jpeg', 'medium', options), ImageDecodeError);
  });
});
