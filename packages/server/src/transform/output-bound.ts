import { LoupeError, type Transforms } from '@loupe/contract';
import { hasBox, limitToOriginal, planResize, type ResizePlan, rotatedSize, type Size } from './resize-plan.ts';

/**
 * The bound on what a transform makes (LOUPE_MAX_OUTPUT_PIXELS). Input is bounded when it is
 * stored, but `w=8192&h=8192&dpr=3&fit=fill` asks for 604 Mpx from any original: libvips ran
 * 20 s at 1.4 GB on it while other requests waited. The output's size follows from the
 * transforms and the original's stored size alone, so the bound is checked before anything
 * is decoded, and a preset that could only ever exceed it is refused when saved.
 */
export type SizeTransforms = Pick<Transforms, 'width' | 'height' | 'dpr' | 'fit' | 'gravity' | 'rotate' | 'enlarge'>;

/** The fits that make exactly the box, whatever the original: cover crops to it, fill stretches, pad pads. */
function makesTheBox(plan: ResizePlan): plan is ResizePlan & Size {
  return hasBox(plan) && (plan.fit === 'cover' || plan.fit === 'fill' || plan.fit === 'pad');
}

/** The size the pipeline makes from an original of `source` pixels (as displayed: EXIF orientation applied). */
export function outputSize(transforms: SizeTransforms, source: Size): Size {
  const oriented = rotatedSize(source, transforms.rotate);
  const requested = planResize(transforms);
  if (!requested) return oriented;
  const plan = limitToOriginal(requested, oriented);
  if (makesTheBox(plan)) return { width: plan.width, height: plan.height };
  // contain (scale-down too), and any fit given one side: inside the box, the aspect ratio kept.
  const scale = Math.min(
    plan.width === undefined ? Infinity : plan.width / oriented.width,
    plan.height === undefined ? Infinity : plan.height / oriented.height,
    plan.enlarge ? Infinity : 1,
  );
  return { width: Math.max(1, Math.round(oriented.width * scale)), height: Math.max(1, Math.round(oriented.height * scale)) };
}

const megapixels = (pixels: number) => `${(pixels / 1e6).toFixed(1)} Mpx`;

function outputTooLarge(size: Size, limit: number, field: string | undefined): LoupeError {
  const pixels = size.width * size.height;
  const message = `The output would be ${size.width}×${size.height} pixels (${megapixels(pixels)}); this server makes at most ${megapixels(limit)} (LOUPE_MAX_OUTPUT_PIXELS). Ask for a smaller width, height or dpr.`;
  return new LoupeError('output_too_large', {
    message,
    details: field === undefined ? { fieldErrors: {}, formErrors: [message] } : { fieldErrors: { [field]: [message] }, formErrors: [] },
    extra: { limit, requested: { width: size.width, height: size.height, pixels } },
  });
}

/** Throws output_too_large (400) when these transforms of an original of `source` pixels exceed `limit`. */
export function assertOutputWithinBound(transforms: SizeTransforms, source: Size, limit: number): void {
  const size = outputSize(transforms, source);
  if (size.width * size.height > limit) throw outputTooLarge(size, limit, undefined);
}

/**
 * Throws output_too_large for transforms whose output exceeds `limit` from every original:
 * the fits that make exactly their box. Others depend on the original (a contain of a thin
 * strip is small; so is a cover that may not enlarge) and are checked on delivery. A preset
 * that leaves `enlarge` unset may enlarge: its project's default can change after it is saved.
 */
export function assertPresetWithinBound(transforms: SizeTransforms, limit: number, field: string): void {
  const plan = planResize(transforms);
  if (plan && makesTheBox(plan) && (plan.enlarge || plan.fit === 'pad') && plan.width * plan.height > limit) {
    throw outputTooLarge({ width: plan.width, height: plan.height }, limit, field);
  }
}
