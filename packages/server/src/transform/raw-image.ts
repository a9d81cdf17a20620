import sharp, { type Sharp } from 'sharp';
import { ImageDecodeError } from './image-decode-error.ts';

/**
 * Uncompressed 8-bit sRGB pixels, with or without alpha. The stages of the pipeline hand
 * these to each other so that nothing is re-encoded between them (STYLE.md §8).
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Runs a pipeline to raw 8-bit pixels. */
export async function readRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) {
    throw new Error(`Expected sRGB pixels with 3 or 4 channels, got ${info.channels}.`);
  }
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Starts a pipeline from raw pixels, bounded by what is left of the time budget. */
export function openRaw(image: RawImage, seconds: number): Sharp {
  const { width, height, channels } = image;
  return sharp(image.data, { raw: { width, height, channels } }).timeout({ seconds });
}

/** One request's decode time limit, shared by all its stages. */
export interface TimeBudget {
  /** The whole seconds left, for sharp's `timeout`; throws a timeout ImageDecodeError once none are. */
  (): number;
  /** Whether the deadline has passed. */
  expired(): boolean;
}

/**
 * sharp's `timeout` counts per pipeline and in whole seconds, so each stage gets what
 * remains, rounded up. Zero disables the limit, as it does in sharp.
 */
export function timeBudget(timeoutSeconds: number, now: () => number = Date.now): TimeBudget {
  if (timeoutSeconds <= 0) return Object.assign(() => 0, { expired: () => false });
  const deadline = now() + timeoutSeconds * 1000;
  const secondsLeft = () => {
    const left = deadline - now();
    if (left <= 0) throw new ImageDecodeError('timeout', 'The image took too long to process.');
    return Math.min(3600, Math.ceil(left / 1000));
  };
  return Object.assign(secondsLeft, { expired: () => now() >= deadline });
}
