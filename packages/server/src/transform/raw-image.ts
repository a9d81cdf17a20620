import sharp, { type Sharp } from 'sharp';
import { ImageDecodeError } from './image-decode-error.ts';

/**
 * Uncompressed 8-bit sRGB pixels, with or without alpha. The stages of the pipeline hand
 * these to each other so that nothing is re-encoded between them (STYLE.md §8).
 */
export interface RawImage {
  data: Buffer;
  /** The size of one frame. */
  width: number;
  height: number;
  channels: 3 | 4;
  /** Frames of an animation, stacked top to bottom in `data` as libvips does; 1 when absent. */
  frames?: number;
}

/** Runs a pipeline to raw 8-bit pixels. */
export async function readRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) {
    throw new Error(`Expected sRGB pixels with 3 or 4 channels, got ${info.channels}.`);
  }
  const frames = info.pages !== undefined && info.pages > 1 && info.pageHeight !== undefined ? info.pages : 1;
  if (frames === 1) return { data, width: info.width, height: info.height, channels: info.channels };
  return { data, width: info.width, height: info.pageHeight as number, channels: info.channels, frames };
}

/** Starts a pipeline from raw pixels, bounded by what is left of the time budget. */
export function openRaw(image: RawImage, seconds: number): Sharp {
  const { width, height, channels, frames = 1 } = image;
  if (frames === 1) return sharp(image.data, { raw: { width, height, channels } }).timeout({ seconds });
  // As one animation: sharp then resizes, crops and pads each frame, not the stack.
  return sharp(image.data, { raw: { width, height: height * frames, channels, pageHeight: height }, animated: true }).timeout({ seconds });
}

/**
 * Runs `stage` on each frame on its own and stacks the results: for the steps that sharp
 * would otherwise apply to the stack as one picture (a blur bleeding from one frame into the
 * next, a quarter turn it refuses, a corner mask drawn once over all frames).
 */
export async function eachFrame(image: RawImage, stage: (frame: RawImage) => Promise<RawImage>): Promise<RawImage> {
  const { frames = 1 } = image;
  if (frames === 1) return stage(image);
  const done = await Promise.all(Array.from({ length: frames }, (_, index) => stage(frameOf(image, index))));
  const [first] = done as [RawImage];
  return { ...first, data: Buffer.concat(done.map((frame) => frame.data)), frames };
}

/** Frame `index` (0-based) of an animation, as a still, without copying its pixels. */
export function frameOf(image: RawImage, index: number): RawImage {
  const { width, height, channels } = image;
  const bytes = width * height * channels;
  return { data: image.data.subarray(index * bytes, (index + 1) * bytes), width, height, channels };
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
