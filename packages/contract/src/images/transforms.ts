import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { ImagePath } from './image.ts';

const integer = (min: number, max: number) => z.number().int().min(min).max(max);

export const fits = ['cover', 'contain', 'fill', 'scale-down', 'crop', 'pad'] as const;
export const formats = ['webp', 'avif', 'jpeg', 'png', 'jxl', 'gif', 'auto'] as const;
/** Spec §2's "corners" are the four corner values of DESIGN.md §7. */
export const gravities = [
  'auto',
  'face',
  'center',
  'top',
  'bottom',
  'left',
  'right',
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
] as const;
/** Where an overlay sits: the cropping gravities that name a place (not `auto` or `face`). */
export const overlayGravities = gravities.filter((gravity) => gravity !== 'auto' && gravity !== 'face') as [
  Exclude<(typeof gravities)[number], 'auto' | 'face'>,
  ...Exclude<(typeof gravities)[number], 'auto' | 'face'>[],
];

/** Every transform parameter with the exact range of spec §2. */
export const transformFields = {
  width: integer(1, 8192).describe('Output width in pixels.'),
  height: integer(1, 8192).describe('Output height in pixels.'),
  fit: z.enum(fits).describe('Resize mode.'),
  format: z
    .enum(formats)
    .describe(
      'Output format; `auto` negotiates on Accept. An animated original stays animated as `webp`, `gif` or `auto` (WebP, else GIF); other formats give a still.',
    ),
  quality: integer(1, 100).describe('Output quality.'),
  qualityMode: z.enum(['high', 'medium', 'low']).describe('Perceptual quality target; `quality` overrides it.'),
  dpr: integer(1, 3).describe('Device pixel ratio: multiplies width and height.'),
  blur: integer(1, 250).describe('Gaussian blur.'),
  sharpen: z.number().min(0).max(10).describe('Unsharp mask strength.'),
  gravity: z.enum(gravities).describe('Focal area when cropping.'),
  radius: z.union([integer(1, 9999), z.literal('max')]).describe('Corner radius in output pixels, or `max` for a circle or ellipse.'),
  grayscale: z.boolean().describe('Convert to grayscale.'),
  brightness: integer(-100, 100).describe('Brightness adjustment; 0 leaves it unchanged.'),
  contrast: z.number().min(-100).max(100).describe('Contrast adjustment; 0 leaves it unchanged.'),
  saturation: integer(-100, 100).describe('Saturation adjustment; 0 leaves it unchanged.'),
  sepia: z.boolean().describe('Sepia tone.'),
  bg: z
    .string()
    .regex(/^[0-9a-fA-F]{6}$/, 'Must be six hex digits without a leading #.')
    .describe('Background colour, six hex digits without #.'),
  rotate: z.union([z.literal(90), z.literal(180), z.literal(270)]).describe('Rotation in degrees.'),
  flip: z.enum(['h', 'v']).describe('Flip horizontally or vertically.'),
  frame: integer(1, 10000).describe(
    'One frame of an animated original, 1 for the first: the output is a still. 400 beyond the number of frames the image has.',
  ),
  overlay: ImagePath.describe(
    'Path of another image of the same project to place over the result (a watermark); its first frame if animated.',
  ),
  overlayGravity: z
    .enum(overlayGravities)
    .describe('Where the overlay sits; `center` by default. With `overlayTile`, where the grid of tiles is aligned.'),
  overlayX: integer(-8192, 8192).describe(
    'Horizontal offset of the overlay in output pixels, inwards from the edge its gravity names (rightwards for center, top, bottom).',
  ),
  overlayY: integer(-8192, 8192).describe(
    'Vertical offset of the overlay in output pixels, inwards from the edge its gravity names (downwards for center, left, right).',
  ),
  overlayScale: integer(1, 100).describe(
    "Overlay width as a percentage of the result's width; by default its own size, shrunk to fit inside the result.",
  ),
  overlayOpacity: integer(0, 100).describe('Overlay opacity in percent, applied to its own alpha; 100 by default.'),
  overlayTile: z.boolean().describe('Repeat the overlay over the whole result.'),
  overlaySpacing: integer(0, 8192).describe('Gap between repeated overlays in output pixels (with `overlayTile`).'),
};

export type TransformName = keyof typeof transformFields;
export const transformNames = Object.keys(transformFields) as TransformName[];

/** The short CDN query names of DESIGN.md §7; every other parameter goes by its long name. */
export const transformShortNames: { readonly [N in TransformName]?: string } = {
  width: 'w',
  height: 'h',
  gravity: 'g',
  format: 'f',
  quality: 'q',
  overlay: 'ov',
  overlayGravity: 'ovg',
  overlayX: 'ovx',
  overlayY: 'ovy',
  overlayScale: 'ovs',
  overlayOpacity: 'ovo',
  overlayTile: 'ovt',
  overlaySpacing: 'ovsp',
};

export const Transforms = atLeastOneField(z.strictObject(transformFields).partial(), 'Set at least one transform parameter.').meta({
  id: 'Transforms',
});
export type Transforms = z.infer<typeof Transforms>;
