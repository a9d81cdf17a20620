import type { PostingList } from './posting-list.ts';

/** A search over word lists: every group must match, a group where any of its lists does; the excluded match nothing. */
export interface ListQuery {
  groups: PostingList[][];
  /** Ordinals of the documents holding an excluded word. */
  excluded: Uint32Array[];
}

export interface RankedOrdinal {
  ordinal: number;
  score: number;
}

/**
 * The best `count` matches of the query, highest score first and, among equal scores, lowest
 * ordinal first, as FTS5 orders rank then rowid. A match's score is the sum of its lists'
 * scores (every list of the query, as bm25 sums over every phrase; a list without the document
 * adds nothing), accumulated term at a time over the generation's documents: a few nanoseconds
 * a posting where bm25 takes most of a microsecond.
 */
export function bestDocuments(query: ListQuery, count: number): RankedOrdinal[] {
  const lists = query.groups.flat();
  if (count <= 0 || query.groups.length === 0 || lists.length === 0) return [];
  if (lists.length === 1) return bestOfOneList(lists[0], query.excluded, count);
  let size = 0;
  for (const list of lists) if (list.ordinals.length > 0) size = Math.max(size, list.ordinals[list.ordinals.length - 1] + 1);
  const { scores, groupsMatched, lastGroup } = accumulators(size);
  query.groups.forEach((group, g) => {
    const mark = g + 1;
    for (const { ordinals, scores: listScores } of group) {
      for (let i = 0; i < ordinals.length; i++) {
        const ordinal = ordinals[i];
        scores[ordinal] += listScores[i];
        if (lastGroup[ordinal] !== mark) {
          lastGroup[ordinal] = mark;
          groupsMatched[ordinal]++;
        }
      }
    }
  });
  for (const ordinals of query.excluded) {
    for (let i = 0; i < ordinals.length; i++) if (ordinals[i] < size) groupsMatched[ordinals[i]] = 0;
  }
  // Every match is in each group's lists: the group with the fewest postings names the
  // candidates, rather than a pass over every document of the generation.
  const driver = query.groups.reduce((fewest, group) => (postings(group) < postings(fewest) ? group : fewest));
  const wanted = query.groups.length;
  const best = new BestOf(count);
  for (const { ordinals } of driver) {
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i];
      if (groupsMatched[ordinal] !== wanted) continue;
      // Offered once: a document in two of the driver's lists is seen again.
      groupsMatched[ordinal] = 0;
      best.offer(ordinal, scores[ordinal]);
    }
  }
  return best.inOrder();
}

/**
 * A query of one word: its list is the ranking, less the documents of the excluded words. All
 * the lists ascend, so they are walked side by side, with nothing to add up.
 */
function bestOfOneList(list: PostingList, excluded: Uint32Array[], count: number): RankedOrdinal[] {
  const best = new BestOf(count);
  const next = new Array<number>(excluded.length).fill(0);
  postings: for (let i = 0; i < list.ordinals.length; i++) {
    const ordinal = list.ordinals[i];
    for (let e = 0; e < excluded.length; e++) {
      const out = excluded[e];
      let at = next[e];
      while (at < out.length && out[at] < ordinal) at++;
      next[e] = at;
      if (at < out.length && out[at] === ordinal) continue postings;
    }
    best.offer(ordinal, list.scores[i]);
  }
  return best.inOrder();
}

/**
 * A score and two group counters a document, kept from one query to the next on this thread:
 * at 50,000 documents they are half a megabyte, which allocating (zeroed, then collected)
 * cost a query more than clearing what it uses.
 */
const kept = { scores: new Float64Array(0), groupsMatched: new Uint8Array(0), lastGroup: new Uint8Array(0) };

function accumulators(size: number): typeof kept {
  if (kept.scores.length < size) {
    kept.scores = new Float64Array(size);
    kept.groupsMatched = new Uint8Array(size);
    kept.lastGroup = new Uint8Array(size);
  } else {
    kept.scores.fill(0, 0, size);
    kept.groupsMatched.fill(0, 0, size);
    kept.lastGroup.fill(0, 0, size);
  }
  return kept;
}

const postings = (group: PostingList[]) => group.reduce((sum, list) => sum + list.ordinals.length, 0);

/** The `count` best of what is offered, in a binary heap whose root is the worst kept. */
class BestOf {
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

function ranksBefore(score: number, ordinal: number, otherScore: number, otherOrdinal: number): boolean {
  return score > otherScore || (score === otherScore && ordinal < otherOrdinal);
}
