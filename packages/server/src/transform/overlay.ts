import type { Transforms } from '@loupe/contract';
import sharp, { type Gravity } from 'sharp';
import { openRaw, type RawImage, readRaw } from './raw-image.ts';
import type { Size } from './resize-plan.ts';

export type OverlayTransforms = Pick<
  Transforms,
  'overlay' | 'overlayGravity' | 'overlayX' | 'overlayY' | 'overlayScale' | 'overlayOpacity' | 'overlayTile' | 'overlaySpacing'
>;
type OverlayGravity = NonNullable<Transforms['overlayGravity']>;
type Alignment = 'start' | 'centre' | 'end';

const SHARP_GRAVITY: Record<OverlayGravity, Gravity> = {
  center: 'centre',
  top: 'north',
  bottom: 'south',
  left: 'west',
  right: 'east',
  'top-left': 'northwest',
  'top-right': 'northeast',
  'bottom-left': 'southwest',
  'bottom-right': 'southeast',
};

/** How a gravity aligns the overlay across (`horizontal`) and down (`vertical`). */
function alignment(gravity: OverlayGravity): { horizontal: Alignment; vertical: Alignment } {
  const edge = (start: string, end: string): Alignment => (gravity.includes(start) ? 'start' : gravity.includes(end) ? 'end' : 'centre');
  return { horizontal: edge('left', 'right'), vertical: edge('top', 'bottom') };
}

/** Offsets push inwards from the edge the gravity names; from the centre they push right and down. */
function position(align: Alignment, outer: number, inner: number, offset: number): number {
  if (align === 'start') return offset;
  if (align === 'end') return outer - inner - offset;
  return Math.round((outer - inner) / 2) + offset;
}

/** Where the overlay's top-left corner lands on the result, in output pixels (it may lie outside). */
export function overlayPosition(result: Size, overlay: Size, transforms: OverlayTransforms): { left: number; top: number } {
  const { horizontal, vertical } = alignment(transforms.overlayGravity ?? 'center');
  return {
    left: position(horizontal, result.width, overlay.width, transforms.overlayX ?? 0),
    top: position(vertical, result.height, overlay.height, transforms.overlayY ?? 0),
  };
}

/**
 * The overlay's pixels at the size it takes on this result: `overlayScale` percent of the
 * result's width (or its own size), never beyond the result, its alpha times the opacity.
 * A still: an animated overlay gives its first frame. Decoded under the originals' pixel bound.
 */
async function overlayPixels(input: Buffer, result: Size, transforms: OverlayTransforms, maxInputPixels: number, seconds: number) {
  const scale = transforms.overlayScale;
  const opacity = (transforms.overlayOpacity ?? 100) / 100;
  const overlay = await readRaw(
    sharp(input, { failOn: 'error', limitInputPixels: maxInputPixels, autoOrient: true, pages: 1, page: 0 })
      .timeout({ seconds })
      .resize({
        width: scale === undefined ? result.width : Math.max(1, Math.round((result.width * scale) / 100)),
        height: result.height,
        fit: 'inside',
        withoutEnlargement: scale === undefined,
      })
      .toColourspace('srgb')
      .ensureAlpha(),
  );
  // A pass of its own: sharp runs `linear` before `ensureAlpha`, on an alpha that may not exist yet.
  return opacity === 1 ? overlay : readRaw(openRaw(overlay, seconds).linear([1, 1, 1, opacity], [0, 0, 0, 0]));
}

/** The tile for `overlayTile`: the overlay with its spacing as transparent margin, on the side away from the gravity's edge. */
async function tileOf(overlay: RawImage, result: Size, transforms: OverlayTransforms, seconds: number): Promise<RawImage> {
  const spacing = transforms.overlaySpacing ?? 0;
  if (spacing === 0) return overlay;
  const { horizontal, vertical } = alignment(transforms.overlayGravity ?? 'center');
  // A tile is at most the result's size: sharp composites nothing larger than its base.
  const across = Math.min(spacing, result.width - overlay.width);
  const down = Math.min(spacing, result.height - overlay.height);
  const margins = (align: Alignment, gap: number) =>
    align === 'start' ? [0, gap] : align === 'end' ? [gap, 0] : [Math.floor(gap / 2), gap - Math.floor(gap / 2)];
  const [left, right] = margins(horizontal, across);
  const [top, bottom] = margins(vertical, down);
  return readRaw(openRaw(overlay, seconds).extend({ left, right, top, bottom, background: { r: 0, g: 0, b: 0, alpha: 0 } }));
}

/**
 * Places the overlay image (`overlay` of the transforms, given as its stored original)
 * over the result: once at its gravity and offsets, or repeated over the whole result.
 */
export async function placeOverlay(
  image: RawImage,
  overlayInput: Buffer,
  transforms: OverlayTransforms,
  maxInputPixels: number,
  secondsLeft: () => number,
): Promise<RawImage> {
  const overlay = await overlayPixels(overlayInput, image, transforms, maxInputPixels, secondsLeft());
  const base = openRaw(image, secondsLeft());
  if (transforms.overlayTile) {
    const tile = await tileOf(overlay, image, transforms, secondsLeft());
    base.composite([{ input: tile.data, raw: tile, tile: true, gravity: SHARP_GRAVITY[transforms.overlayGravity ?? 'center'] }]);
  } else {
    base.composite([{ input: overlay.data, raw: overlay, ...overlayPosition(image, overlay, transforms) }]);
  }
  // Compositing adds an alpha channel; an opaque result stays opaque (3 channels).
  return readRaw(image.channels === 3 ? base.removeAlpha() : base);
}
