import { LoupeError } from '@loupe/contract';
import sharp from 'sharp';
import type { DeliveryImage } from './delivery-store.ts';

/** The formats an original can be animated in. */
const ANIMATABLE = new Set(['gif', 'webp']);

/**
 * How many frames the output has: the original's, or 1 when `frame` takes one of them (400 when
 * the original has fewer). Images stored before frames were counted have theirs read from the
 * original's header, which is all sharp parses for a count.
 */
export async function animationFrames(image: DeliveryImage, frame: number | undefined, original: () => Promise<Buffer>): Promise<number> {
  const frames = image.frames ?? (ANIMATABLE.has(image.format) ? ((await sharp(await original()).metadata()).pages ?? 1) : 1);
  if (frame === undefined) return frames;
  if (frame > frames) {
    const message = `This image has ${frames} frame${frames === 1 ? '' : 's'}; frame counts from 1.`;
    throw new LoupeError('validation_failed', { message, details: { fieldErrors: { frame: [message] }, formErrors: [] } });
  }
  return 1;
}
