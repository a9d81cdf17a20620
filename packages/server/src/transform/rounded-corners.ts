import type { Transforms } from '@loupe/contract';

/**
 * An SVG mask, the output's size, that keeps a rounded rectangle: composited with
 * `blend: 'dest-in'`, it makes the corners transparent (librsvg anti-aliases the curve).
 *
 * A number is a radius in output pixels, capped at half the shorter side so that a large
 * value gives a pill, as CSS `border-radius` does; `max` takes half of each side, which
 * is a circle on a square and an ellipse otherwise.
 */
export function roundedCornerMask(width: number, height: number, radius: NonNullable<Transforms['radius']>): Buffer {
  const capped = radius === 'max' ? 0 : Math.min(radius, width / 2, height / 2);
  const rx = radius === 'max' ? width / 2 : capped;
  const ry = radius === 'max' ? height / 2 : capped;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="${width}" height="${height}" rx="${rx}" ry="${ry}"/></svg>`,
  );
}
