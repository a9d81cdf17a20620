/** Under this much observed time a rate is not known yet (null), rather than a guess from one burst. */
const MIN_SPAN_MS = 1_000;
/** Samples closer than this are merged: a crawler may report thousands of times a second. */
const RESOLUTION_MS = 100;

interface Sample {
  at: number;
  counts: readonly number[];
}

/**
 * Recent rates of a few growing counts: the growth since the newest sample at least `windowMs`
 * old (or the oldest there is), per second up to now. A count that stops growing decays to 0
 * as time passes, so a stalled phase shows 0/s rather than its last good rate.
 */
export class RateWindow {
  readonly #windowMs: number;
  #samples: Sample[] = [];

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  add(at: number, counts: readonly number[]): void {
    const before = this.#samples.at(-2);
    // The newest sample follows the latest counts until it is RESOLUTION_MS past the one before.
    if (before && at - before.at < RESOLUTION_MS) this.#samples[this.#samples.length - 1] = { at, counts };
    else this.#samples.push({ at, counts });
    this.#prune(at);
  }

  /** Samples kept: about one per RESOLUTION_MS over the window. */
  get size(): number {
    return this.#samples.length;
  }

  /** Per second, rounded to a tenth; null for each count while less than a second has been seen. */
  rates(at: number): (number | null)[] {
    this.#prune(at);
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last) return [];
    const span = at - first.at;
    return last.counts.map((count, index) =>
      span < MIN_SPAN_MS ? null : Math.round(((count - (first.counts[index] ?? 0)) / span) * 10_000) / 10,
    );
  }

  #prune(at: number): void {
    // Keep the newest sample at or before the window's start: it is the baseline.
    while (this.#samples.length > 1 && this.#samples[1]!.at <= at - this.#windowMs) this.#samples.shift();
  }
}
