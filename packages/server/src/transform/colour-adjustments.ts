import type { Transforms } from '@loupe/contract';

type Row = [number, number, number];
export type Matrix3 = [Row, Row, Row];

/**
 * The colour step as one affine map of RGB: `out = matrix × in + offset`, applied with
 * sharp's `recomb(matrix)` then `linear(1, offset)` in a pass of its own.
 *
 * Why not `modulate`: sharp runs its operations in a fixed internal order (recomb, then
 * modulate, then sharpen, then linear), which cannot express DESIGN.md §7's brightness →
 * contrast → saturation → grayscale → sepia. Each of these is linear in RGB, so composing
 * them here keeps that order exactly and costs one pass over the output pixels.
 */
export interface ColourAdjustment {
  matrix: Matrix3;
  offset: Row;
}

/** Rec. 709 luma weights: sRGB shares its primaries, and CSS `grayscale()` uses them too. */
const LUMA: Row = [0.2126, 0.7152, 0.0722];
const GRAYSCALE: Matrix3 = [LUMA, LUMA, LUMA];
/** The sepia matrix of CSS Filter Effects' `sepia(1)`: warm tones, R > G > B on grey. */
const SEPIA: Matrix3 = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];
/** Contrast turns around mid-grey, so −100 gives flat grey rather than black. */
const PIVOT = 128;

/**
 * The colour step of a request, or undefined when it changes nothing.
 *
 * - brightness b: multiply every channel by 1 + b/100 (−100 black, 0 unchanged, 100 twice
 *   as bright) — sharp's `modulate({ brightness })` scale, applied to RGB.
 * - contrast c: `linear(a, 128 × (1 − a))` with a = 1 + c/100, around mid-grey.
 * - saturation s: CSS `saturate(1 + s/100)` matrix (−100 grey with R = G = B, 100 doubled
 *   chroma), which keeps luma; sharp's `modulate({ saturation })` scale, applied to RGB.
 * - grayscale: Rec. 709 luma into all three channels; sepia: CSS `sepia(1)`.
 */
export function colourAdjustment(
  transforms: Pick<Transforms, 'brightness' | 'contrast' | 'saturation' | 'grayscale' | 'sepia'>,
): ColourAdjustment | undefined {
  const { brightness = 0, contrast = 0, saturation = 0, grayscale = false, sepia = false } = transforms;
  if (brightness === 0 && contrast === 0 && saturation === 0 && !grayscale && !sepia) return undefined;
  const gain = (1 + brightness / 100) * (1 + contrast / 100);
  const shift = PIVOT * (-contrast / 100);
  // Applied last to first: sepia ∘ grayscale ∘ saturation, after the scalar gain and shift.
  let colour = saturationMatrix(1 + saturation / 100);
  if (grayscale) colour = multiply(GRAYSCALE, colour);
  if (sepia) colour = multiply(SEPIA, colour);
  const matrix = colour.map((row) => row.map((value) => value * gain)) as Matrix3;
  const offset = colour.map((row) => shift * (row[0] + row[1] + row[2])) as Row;
  return { matrix, offset };
}

function saturationMatrix(s: number): Matrix3 {
  const [r, g, b] = LUMA;
  return [
    [r + (1 - r) * s, g - g * s, b - b * s],
    [r - r * s, g + (1 - g) * s, b - b * s],
    [r - r * s, g - g * s, b + (1 - b) * s],
  ];
}

function multiply(left: Matrix3, right: Matrix3): Matrix3 {
  return left.map((row) => [0, 1, 2].map((column) => row.reduce((sum, value, k) => sum + value * right[k][column], 0))) as Matrix3;
}
