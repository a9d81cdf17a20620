import { LoupeError } from '@loupe/contract';
import type { Size } from './resize-plan.ts';

/**
 * The bound on animations (LOUPE_MAX_ANIMATION_PIXELS): frames × pixels of a frame, decoded or
 * made. Each frame alone may be small while the whole is not: 5,000 frames of 1000×1000 is a
 * 5 Gpx decode. The frame count is in the header, so the bound is checked before any frame is.
 */
export function assertAnimationWithinBound(frames: number, frame: Size, limit: number, what: 'decoded' | 'made'): void {
  const pixels = frames * frame.width * frame.height;
  if (pixels <= limit) return;
  const megapixels = (value: number) => `${(value / 1e6).toFixed(1)} Mpx`;
  const ask = what === 'made' ? 'Ask for a smaller width, height or dpr' : 'Ask for a smaller original';
  throw new LoupeError('animation_too_large', {
    message: `The animation would be ${frames} frames of ${frame.width}×${frame.height} pixels ${what} (${megapixels(pixels)}); this server handles at most ${megapixels(limit)} of frames (LOUPE_MAX_ANIMATION_PIXELS). ${ask}, or one frame with \`frame\`.`,
    extra: { limit, requested: { frames, width: frame.width, height: frame.height, pixels } },
  });
}
