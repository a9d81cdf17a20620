import type { CdnImageInfo } from '@loupe/contract';
import sharp from 'sharp';
import { iccDescription } from '../transform/icc-description.ts';
import { toImageDecodeError } from '../transform/image-decode-error.ts';
import { jxlCodestreamSize } from '../transform/jxl-size.ts';

const hex = (value: number) => value.toString(16).padStart(2, '0');

const DOMINANT_SAMPLE_SIZE = 256;

/**
 * The first frame in sRGB, at most 256 px a side: sharp's `stats` ignores a resize and reads
 * every pixel (2 s on a 14 Mpx JPEG, 45 ms this way with JPEG shrink-on-load), and the
 * dominant colour (a 16-level histogram peak) comes out the same on the test photos.
 */
async function dominantSample(original: Buffer, limits: { maxInputPixels: number; timeoutSeconds: number }) {
  const { data, info } = await sharp(original, { limitInputPixels: limits.maxInputPixels, pages: 1 })
    .timeout({ seconds: limits.timeoutSeconds })
    .resize(DOMINANT_SAMPLE_SIZE, DOMINANT_SAMPLE_SIZE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

/**
 * Facts of an original for `?meta` (CdnImageInfo): the header gives all but the dominant
 * colour, which takes one bounded decode of the first frame, in sRGB.
 */
export async function describeOriginal(
  original: Buffer,
  stored: { format: string; contentType: string; blurhash: string | null },
  limits: { maxInputPixels: number; timeoutSeconds: number },
): Promise<Omit<CdnImageInfo, 'output'>> {
  try {
    const header = await sharp(original, { limitInputPixels: limits.maxInputPixels }).metadata();
    const sample = await dominantSample(original, limits);
    const { dominant } = await sharp(sample.data, { raw: sample.info }).stats();
    return {
      width: header.autoOrient.width,
      height: header.autoOrient.height,
      format: stored.format,
      contentType: stored.contentType,
      frames: header.pages ?? 1,
      colourSpace: header.space,
      iccProfile: header.icc ? { description: iccDescription(header.icc) } : null,
      hasAlpha: header.hasAlpha,
      dominantColour: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`,
      blurhash: stored.blurhash,
    };
  } catch (error) {
    throw toImageDecodeError(error);
  }
}

/** The output's facts, read back from its header (sharp reads every output format but JPEG XL). */
export async function describeOutput(output: { data: Buffer; contentType: string }): Promise<NonNullable<CdnImageInfo['output']>> {
  const facts = { contentType: output.contentType, size: output.data.length };
  if (output.contentType === 'image/jxl') {
    const size = jxlCodestreamSize(output.data);
    if (!size) throw new Error('The JPEG XL output has no readable size header.');
    return { ...size, format: 'jxl', ...facts };
  }
  const header = await sharp(output.data).metadata();
  const format = header.format === 'heif' && header.compression === 'av1' ? 'avif' : header.format;
  return { width: header.autoOrient.width, height: header.autoOrient.height, format, ...facts };
}
