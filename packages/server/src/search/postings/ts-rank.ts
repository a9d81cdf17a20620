/**
 * PostgreSQL's ts_rank(document, query, 1) (src/backend/utils/adt/tsrank.c) computed from a
 * document's positions of the query's words, so that word lists (postgres/postgres-word-postings.ts)
 * rank as the database would without reading every match's tsvector. tsrank.c computes in
 * single precision: every step here is rounded to float32 where C rounds it, so the scores are
 * the same numbers, not close ones (tested against the database's own).
 *
 * A position is a tsvector's WordEntryPos: the weight in its top two bits (D = 0 … A = 3), the
 * position in the other fourteen.
 */

const f = Math.fround;

/** ts_rank's default weights, D to A. */
const WEIGHTS = [f(0.1), f(0.2), f(0.4), f(1.0)];

/** MAXENTRYPOS: a position is below it, and a distance of 0 counts as it. */
const MAX_ENTRY_POS = 1 << 14;

const positionOf = (entry: number) => entry & (MAX_ENTRY_POS - 1);
const weightOf = (entry: number) => WEIGHTS[entry >> 14];

/** word_distance(): how much two words this far apart count together. */
function wordDistance(distance: number): number {
  if (distance > 100) return f(1e-30);
  return f(1.0 / (1.005 + 0.05 * Math.exp(f(distance) / 1.5 - 2)));
}

/**
 * calc_rank_and's term for two positions, by the two weights and the distance (1 … 101, past
 * 100 every distance weighs the same): sqrt(w1 · w2 · word_distance), a table of 4 × 4 × 102.
 */
const PAIR = (() => {
  const table = new Float32Array(4 * 4 * 102);
  for (let a = 0; a < 4; a++) {
    for (let b = 0; b < 4; b++) {
      for (let d = 1; d <= 101; d++) table[(a * 4 + b) * 102 + d] = f(Math.sqrt(f(f(WEIGHTS[a] * WEIGHTS[b]) * wordDistance(d))));
    }
  }
  return table;
})();

function pairWeight(entry: number, other: number): number {
  const distance = Math.abs(positionOf(entry) - positionOf(other));
  return PAIR[((entry >> 14) * 4 + (other >> 14)) * 102 + Math.min(distance, 101)];
}

/**
 * A document's positions of each distinct word of a query, in PostgreSQL's order of the words:
 * word i's are `entries[i][from[i]]` to `entries[i][to[i] - 1]`, none when from[i] is to[i].
 * Ranges of the word lists' own arrays rather than an array or a view a document: ranking reads
 * tens of thousands of documents a query, and a view each made much of its time garbage
 * collection.
 */
export interface WordPositions {
  entries: ArrayLike<number>[];
  from: Int32Array;
  to: Int32Array;
}

/**
 * calc_rank_or's term for one word of a document: its positions `entries[from … to − 1]`,
 * weighted and damped by their order (0 for none).
 */
export function orTerm(entries: ArrayLike<number>, from: number, to: number): number {
  let sum = 0;
  let heaviest = -1;
  let heaviestAt = 0;
  for (let j = 0; j < to - from; j++) {
    const weight = weightOf(entries[from + j]);
    sum = f(sum + f(weight / ((j + 1) * (j + 1))));
    if (weight > heaviest) {
      heaviest = weight;
      heaviestAt = j;
    }
  }
  return f(f(heaviest + sum) - f(heaviest / ((heaviestAt + 1) * (heaviestAt + 1))));
}

/** calc_rank_or's sum: a word's term (orTerm) added to the rank of the words before it. */
const withOrTerm = (rank: number, term: number) => f(rank + term / 1.64493406685);

/**
 * calc_rank_or: each word's term (orTerm), averaged over the query's words (a word the document
 * lacks adds nothing).
 */
function rankOr({ entries: words, from, to }: WordPositions): number {
  let rank = 0;
  for (let i = 0; i < words.length; i++) {
    if (from[i] !== to[i]) rank = withOrTerm(rank, orTerm(words[i], from[i], to[i]));
  }
  return words.length > 0 ? f(rank / words.length) : rank;
}

/** calc_rank_and: every pair of positions of two different words, nearer ones counting more. */
function rankAnd(positions: WordPositions): number {
  const { entries: words, from, to } = positions;
  if (words.length < 2) return rankOr(positions);
  let rank = -1;
  for (let i = 1; i < words.length; i++) {
    const mine = words[i];
    for (let k = 0; k < i; k++) {
      const theirs = words[k];
      for (let l = from[i]; l < to[i]; l++) {
        for (let p = from[k]; p < to[k]; p++) {
          // Two words at one position are no pair (tsrank.c counts them only without positions).
          if (positionOf(mine[l]) === positionOf(theirs[p])) continue;
          const weight = pairWeight(mine[l], theirs[p]);
          rank = rank < 0 ? weight : f(1.0 - (1.0 - rank) * (1.0 - weight));
        }
      }
    }
  }
  return rank;
}

/**
 * ts_rank(document, query, 1): `positions` holds the document's positions of each distinct word
 * of the query, in PostgreSQL's order of them (compareLexemes); `conjunctive` when the query's
 * top operator is AND or a phrase; `length` is the document's count of positions (cnt_length).
 */
export function tsRank(positions: WordPositions, conjunctive: boolean, length: number): number {
  return normalized(conjunctive ? rankAnd(positions) : rankOr(positions), length);
}

/**
 * ts_rank(document, query, 1) of a query of words ORed, from the terms (orTerm) of the words the
 * document holds, `terms[0 … held − 1]` in PostgreSQL's order of the words, without their
 * positions: `words` counts the query's distinct words, held or not.
 */
export function tsRankOfOrTerms(terms: ArrayLike<number>, held: number, words: number, length: number): number {
  let rank = 0;
  for (let i = 0; i < held; i++) rank = withOrTerm(rank, terms[i]);
  return normalized(words > 0 ? f(rank / words) : rank, length);
}

/** ts_rank's rank divided by the log of the document's length (normalization 1). */
function normalized(rank: number, length: number): number {
  if (rank < 0) rank = f(1e-20);
  return f(rank / (Math.log(length + 1) / Math.log(2.0)));
}

const encoder = new TextEncoder();

/** PostgreSQL's order of lexemes (tsCompareString): their bytes compared, a prefix before the longer. */
export function compareLexemes(a: string, b: string): number {
  const [x, y] = [encoder.encode(a), encoder.encode(b)];
  const shorter = Math.min(x.length, y.length);
  for (let i = 0; i < shorter; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
