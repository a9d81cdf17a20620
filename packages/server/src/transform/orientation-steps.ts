import type { Transforms } from '@loupe/contract';

/** sharp's rotate angle and mirror switches (`flip` = upside down, `flop` = left-right). */
export interface OrientationSteps {
  angle: 0 | 90 | 180 | 270;
  flip: boolean;
  flop: boolean;
}

/**
 * DESIGN.md §7 rotates, then mirrors; sharp always mirrors before it rotates (its docs for
 * `flip` and `flop`). Mirroring after a quarter turn equals mirroring the other axis
 * before it, and a half turn commutes with both mirrors, so swapping the axis for 90 and
 * 270 gives DESIGN's result in one sharp pipeline.
 */
export function orientationSteps(rotate: Transforms['rotate'], flip: Transforms['flip']): OrientationSteps {
  const quarterTurn = rotate === 90 || rotate === 270;
  const mirror = quarterTurn && flip !== undefined ? (flip === 'h' ? 'v' : 'h') : flip;
  return { angle: rotate ?? 0, flip: mirror === 'v', flop: mirror === 'h' };
}
