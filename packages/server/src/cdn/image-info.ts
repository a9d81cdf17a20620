import type { CdnImageInfo } from '@loupe/contract';
import sharp from 'sharp';
import { iccDescription } from '../transform/icc-description.ts';
import { toImageDecodeError } from '../transform/image-decode-error.ts';
import { jxlCodestreamSize } from '../transform/jxl-size.ts';

const hex = (value: number) => value.toString(16).padStart(2, '0');

/**
 * Facts of an original for `?meta` (CdnImageInfo): the header gives all but the dominant
 * colour, which takes one bounded decode of the first frame (sharp's `stats`).
 */
export async function describeOriginal(
  original: Buffer,
  stored: { format: string; contentType: string; blurhash: string | null },
  maxInputPixels: number,
): Promise<Omit<CdnImageInfo, 'output'>> {
  try {
    const header = await sharp(original, { limitInputPixels: maxInputPixels }).metadata();
    const { dominant } = await sharp(original, { limitInputPixels: maxInputPixels, pages: 1 }).stats();
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
