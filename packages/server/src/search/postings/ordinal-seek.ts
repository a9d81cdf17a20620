/**
 * Seeking in a list's ascending ordinals, for rankings that walk a rare word's matches and look
 * each up in a common word's list rather than reading the whole of it.
 */

/** The first index in [low, high) of ascending `ordinals` whose ordinal is `ordinal` or more (high: none). */
export function firstAtOrAfter(ordinals: Uint32Array, ordinal: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ordinals[middle] < ordinal) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The first index from `at` on whose ordinal is `ordinal` or more (the length: none). Galloping
 * (steps doubling, then a binary search in the last step): a seek costs the log of how far it
 * moves, so a walk forward over the whole list costs no more than reading it.
 */
export function seekFrom(ordinals: Uint32Array, ordinal: number, at: number): number {
  if (at >= ordinals.length || ordinals[at] >= ordinal) return at;
  let step = 1;
  while (at + step < ordinals.length && ordinals[at + step] < ordinal) step *= 2;
  return firstAtOrAfter(ordinals, ordinal, at + (step >> 1), Math.min(at + step, ordinals.length));
}
