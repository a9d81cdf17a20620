import type { Transforms } from '@loupe/contract';
import type { ResizeOptions } from 'sharp';

export type Gravity = NonNullable<Transforms['gravity']>;
export interface Size {
  width: number;
  height: number;
}
export interface Region extends Size {
  left: number;
  top: number;
}

/** What the resize step does, in output pixels. */
export interface ResizePlan {
  /** width×dpr and height×dpr (DESIGN.md §7); a missing side follows the aspect ratio. */
  width?: number;
  height?: number;
  /** `crop` is folded into `cover`, its synonym, and `scale-down` into `contain` that never enlarges. */
  fit: 'cover' | 'contain' | 'fill' | 'pad';
  gravity: Gravity;
  /** False under `enlarge=never` (and for scale-down): no side of the picture outgrows the original's. */
  enlarge: boolean;
}

type Box = ResizePlan & Size;

/**
 * The resize step of a request, or undefined when it sets neither width nor height (`dpr`
 * alone multiplies nothing). Without `fit`, a box is covered: it is the only fit where
 * `gravity` means something, and sharp's default too. `enlarge` unset allows enlarging: the
 * CDN resolves it against the project's default before it gets here.
 */
export function planResize(
  transforms: Pick<Transforms, 'width' | 'height' | 'dpr' | 'fit' | 'gravity' | 'enlarge'>,
): ResizePlan | undefined {
  const { width, height, dpr = 1, fit, gravity = 'center' } = transforms;
  if (width === undefined && height === undefined) return undefined;
  return {
    width: width === undefined ? undefined : width * dpr,
    height: height === undefined ? undefined : height * dpr,
    fit: fit === undefined || fit === 'crop' ? 'cover' : fit === 'scale-down' ? 'contain' : fit,
    gravity,
    enlarge: transforms.enlarge !== 'never' && fit !== 'scale-down',
  };
}

/** `source` once turned by `rotate`, which comes before the resize (DESIGN.md §7). */
export function rotatedSize(source: Size, rotate: Transforms['rotate']): Size {
  return rotate === 90 || rotate === 270 ? { width: source.height, height: source.width } : source;
}

/** Whether the plan's box depends on the original's size: a cover or fill box that may not enlarge. */
export function limitsBoxToOriginal(plan: ResizePlan): plan is Box {
  return !plan.enlarge && hasBox(plan) && (plan.fit === 'cover' || plan.fit === 'fill');
}

/**
 * The plan for an original of `source` pixels (oriented and rotated). A cover or fill box that
 * would enlarge shrinks, keeping its shape, until the original covers it: 800×800 of a 400×300
 * original is 300×300, cropped by gravity (imgix fit=min, imgproxy enlarge=0). Contain and the
 * picture inside pad stop at the original's size through sharp's withoutEnlargement instead.
 */
export function limitToOriginal(plan: ResizePlan, source: Size): ResizePlan {
  if (!limitsBoxToOriginal(plan)) return plan;
  const scale = Math.min(1, source.width / plan.width, source.height / plan.height);
  if (scale === 1) return plan;
  return {
    ...plan,
    width: clamp(Math.round(plan.width * scale), 1, source.width),
    height: clamp(Math.round(plan.height * scale), 1, source.height),
  };
}

/** Whether the plan has an exact box: both sides given. */
export function hasBox(plan: ResizePlan): plan is Box {
  return plan.width !== undefined && plan.height !== undefined;
}

/** Whether the plan crops, so that gravity chooses what is kept. */
export function cropsByGravity(plan: ResizePlan): plan is Box {
  return plan.fit === 'cover' && hasBox(plan);
}

const positions = {
  center: 'centre',
  top: 'top',
  bottom: 'bottom',
  left: 'left',
  right: 'right',
  'top-left': 'left top',
  'top-right': 'right top',
  'bottom-left': 'left bottom',
  'bottom-right': 'right bottom',
  // sharp's attention strategy ranks regions by luminance frequency, saturation and skin
  // tones, which is DESIGN.md §7's saliency. `face` reaches sharp only when no face was found.
  auto: 'attention',
  face: 'attention',
} as const satisfies Record<Gravity, string>;

/**
 * sharp's resize options for the plan, once limitToOriginal has shrunk its box. `pad` resizes
 * like `contain`; its band comes later.
 */
export function sharpResize(plan: ResizePlan): ResizeOptions {
  const size = { width: plan.width, height: plan.height };
  // With one side there is no box to cover, fill or pad: every fit keeps the aspect
  // ratio (sharp's `fill` would keep the other side's original length instead).
  if (!hasBox(plan)) return { ...size, fit: 'inside', withoutEnlargement: !plan.enlarge };
  switch (plan.fit) {
    case 'cover':
      return { ...size, fit: 'cover', position: positions[plan.gravity] };
    case 'fill':
      return { ...size, fit: 'fill' };
    case 'contain':
    case 'pad':
      return { ...size, fit: 'inside', withoutEnlargement: !plan.enlarge };
  }
}

/**
 * The region of `source` that covers `box` once scaled, placed so that `centre` is as
 * central as the source's edges allow: face gravity.
 */
export function coverCropAround(source: Size, centre: { x: number; y: number }, box: Size): Region {
  const scale = Math.max(box.width / source.width, box.height / source.height);
  const width = Math.max(1, Math.min(source.width, Math.round(box.width / scale)));
  const height = Math.max(1, Math.min(source.height, Math.round(box.height / scale)));
  return {
    left: clamp(Math.round(centre.x - width / 2), 0, source.width - width),
    top: clamp(Math.round(centre.y - height / 2), 0, source.height - height),
    width,
    height,
  };
}

/** The band that pads `image` to `box`, placed by gravity (centred for auto and face). */
export function padOffsets(image: Size, box: Size, gravity: Gravity): { top: number; bottom: number; left: number; right: number } {
  const spareX = Math.max(0, box.width - image.width);
  const spareY = Math.max(0, box.height - image.height);
  const left = gravity.endsWith('left') ? 0 : gravity.endsWith('right') ? spareX : Math.floor(spareX / 2);
  const top = gravity.startsWith('top') ? 0 : gravity.startsWith('bottom') ? spareY : Math.floor(spareY / 2);
  return { top, bottom: spareY - top, left, right: spareX - left };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
