/** A document by its ordinal in its generation, and its score. */
export interface RankedOrdinal {
  ordinal: number;
  score: number;
}

/**
 * The `count` best of what is offered, in a binary heap whose root is the worst kept: highest
 * score first and, among equal scores, lowest ordinal first (the order of rowids on SQLite, of
 * page ids on PostgreSQL).
 */
export class BestOf {
  readonly #ordinals: Uint32Array;
  readonly #scores: Float64Array;
  #size = 0;

  constructor(count: number) {
    this.#ordinals = new Uint32Array(count);
    this.#scores = new Float64Array(count);
  }

  offer(ordinal: number, score: number): void {
    const capacity = this.#ordinals.length;
    if (this.#size < capacity) {
      this.#place(this.#size++, ordinal, score);
      this.#up(this.#size - 1);
    } else if (ranksBefore(score, ordinal, this.#scores[0], this.#ordinals[0])) {
      this.#place(0, ordinal, score);
      this.#down(0);
    }
  }

  /**
   * The score an offer needs to be kept: −Infinity until `count` are, then the worst kept's
   * (equal to it, an offer is kept only with a lower ordinal). A ranking compares a score with
   * it before gathering the rest of an offer: most postings of a common word end there.
   */
  get floor(): number {
    return this.#size < this.#ordinals.length ? Number.NEGATIVE_INFINITY : this.#scores[0];
  }

  inOrder(): RankedOrdinal[] {
    const kept = Array.from({ length: this.#size }, (_, i) => ({ ordinal: this.#ordinals[i], score: this.#scores[i] }));
    return kept.sort((a, b) => (ranksBefore(a.score, a.ordinal, b.score, b.ordinal) ? -1 : 1));
  }

  #place(at: number, ordinal: number, score: number): void {
    this.#ordinals[at] = ordinal;
    this.#scores[at] = score;
  }

  #worse(a: number, b: number): boolean {
    return ranksBefore(this.#scores[b], this.#ordinals[b], this.#scores[a], this.#ordinals[a]);
  }

  #swap(a: number, b: number): void {
    const [ordinal, score] = [this.#ordinals[a], this.#scores[a]];
    this.#place(a, this.#ordinals[b], this.#scores[b]);
    this.#place(b, ordinal, score);
  }

  #up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.#worse(at, parent)) return;
      this.#swap(at, parent);
      at = parent;
    }
  }

  #down(at: number): void {
    for (;;) {
      const [left, right] = [2 * at + 1, 2 * at + 2];
      let worst = at;
      if (left < this.#size && this.#worse(left, worst)) worst = left;
      if (right < this.#size && this.#worse(right, worst)) worst = right;
      if (worst === at) return;
      this.#swap(at, worst);
      at = worst;
    }
  }
}

export function ranksBefore(score: number, ordinal: number, otherScore: number, otherOrdinal: number): boolean {
  return score > otherScore || (score === otherScore && ordinal < otherOrdinal);
}
