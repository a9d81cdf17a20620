import { encode } from 'blurhash';
import { ImageDecodeError } from './image-decode-error.ts';
import { assertSafeSvgBesideLoop } from './svg-safety-threads.ts';
import { probeImage } from './transform-pipeline.ts';

/** Formats we accept as originals, with the media type we store and serve them under. */
const originalTypes: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  heif: 'image/heif',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
};

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
  hasAlpha: boolean;
  /** Frames of an animated GIF or WebP; 1 for a still. */
  frames: number;
  contentType: string;
  blurhash: string;
}

/**
 * Decodes an upload fully (a truncated file fails here, before anything is stored) and
 * reports what it really is, with a blurhash placeholder. Throws ImageDecodeError.
 */
export async function inspectImage(
  input: Uint8Array,
  options: { maxInputPixels: number; maxAnimationPixels: number },
): Promise<ImageFacts> {
  const buffer = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const probe = await probeImage(buffer, options);
  const contentType = originalTypes[probe.format];
  if (!contentType) throw new ImageDecodeError('unsupported', `Images in ${probe.format} format are not accepted.`);
  if (probe.format === 'svg') await assertSafeSvgBesideLoop(input);
  const { data, width, height } = probe.thumbnail;
  // blurha.sh suggests 4×3 components for landscape pictures, 3×4 for portrait ones.
  const componentsX = width >= height ? 4 : 3;
  const blurhash = encode(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength),
    width,
    height,
    componentsX,
    7 - componentsX,
  );
  const { width: w, height: h, format, hasAlpha, pages: frames } = probe;
  return { width: w, height: h, format, hasAlpha, frames, contentType, blurhash };
}
