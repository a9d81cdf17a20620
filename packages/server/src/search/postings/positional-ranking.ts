import { BestOf } from './best-of.ts';
import { seekFrom } from './ordinal-seek.ts';
import type { PositionalList } from './positional-list.ts';
import { compareLexemes, orTerm, tsRank, tsRankOfOrTerms, type WordPositions } from './ts-rank.ts';

/**
 * A term as PostgreSQL reads it (phraseto_tsquery): its lexemes, each with its distance from the
 * first (`'a' <-> 'b' <2> 'c'` is a at p, b at p + 1, c at p + 3). A word is one lexeme at 0.
 */
export interface LexemePhrase {
  lexemes: string[];
  offsets: number[];
}

/** A query as the SQL of postgres/postgres-search-engine.ts asks it, terms that are only stop words left out. */
export interface PositionalQuery {
  /** Every group must match; a group matches where one of its terms does. */
  groups: LexemePhrase[][];
  /** A document where one of these matches is no hit. */
  excluded: LexemePhrase[];
}

/** What ranking reads of each document of the generation, by ordinal. */
export interface GenerationStats {
  /** Its count of positions (ts_rank's length). */
  lengths: Uint32Array;
}

export interface RankedMatch {
  ordinal: number;
  score: number;
}

/**
 * The best `count` matches of the query over the lists of its lexemes, ranked by ts_rank(…, 1)
 * as PostgreSQL computes it (ts-rank.ts), highest first, then by ordinal (the page ids' order).
 * Document at a time: the group with the fewest matches names the candidates in ordinal order,
 * and every list is walked forward once; a word alone reads its list's scores (scoresAlone), and
 * words that must all be there (offerWordsAll) and words ORed (offerWordsAny) have walks of their own.
 */
export function bestMatches(
  query: PositionalQuery,
  lists: ReadonlyMap<string, PositionalList>,
  stats: GenerationStats,
  count: number,
): RankedMatch[] {
  if (count <= 0 || query.groups.length === 0) return [];
  const lexemes = [...new Set([...query.groups.flat(), ...query.excluded].flatMap((term) => term.lexemes))];
  const cursor = new Cursors(lexemes.map((lexeme) => required(lists, lexeme)));
  const slot = new Map(lexemes.map((lexeme, i) => [lexeme, i]));
  const compile = (term: LexemePhrase) => ({ slots: term.lexemes.map((lexeme) => slot.get(lexeme)!), offsets: term.offsets });
  const groups = query.groups.map((group) => group.map(compile));
  const excluded = query.excluded.map(compile);
  // ts_rank's items: the wanted lexemes, distinct, in PostgreSQL's order of them.
  const items = [...new Set(query.groups.flat().flatMap((term) => term.lexemes))].sort(compareLexemes).map((lexeme) => slot.get(lexeme)!);
  // The top operator: AND between groups, or a phrase alone; else OR (or one word).
  const conjunctive = query.groups.length > 1 || (query.groups[0].length === 1 && query.groups[0][0].lexemes.length > 1);

  const best = new BestOf(count);
  if (isOneWord(query)) {
    // One word (however often it is written): its list's matches are the candidates, each scored already.
    const list = cursor.lists[items[0]];
    const scores = scoresAlone(list, stats.lengths);
    let floor = best.floor;
    for (let i = 0; i < list.ordinals.length; i++) {
      if (scores[i] < floor) continue;
      const ordinal = list.ordinals[i];
      if (cursor.matchesAny(excluded, ordinal)) continue;
      best.offer(ordinal, scores[i]);
      floor = best.floor;
    }
  } else if (isWordsAll(query)) {
    offerWordsAll(
      items.map((s) => cursor.lists[s]),
      (ordinal) => cursor.matchesAny(excluded, ordinal),
      conjunctive,
      stats.lengths,
      best,
    );
  } else if (isWordsAny(query)) {
    offerWordsAny(
      items.map((s) => cursor.lists[s]),
      (ordinal) => cursor.matchesAny(excluded, ordinal),
      stats.lengths,
      best,
    );
  } else {
    // Filled in for each document, never made anew (ts-rank.ts's WordPositions).
    const positions: WordPositions = {
      entries: items.map((s) => cursor.lists[s].entries),
      from: new Int32Array(items.length),
      to: new Int32Array(items.length),
    };
    const next = new Candidates(groups, cursor.lists);
    for (let ordinal = next.ordinal(); ordinal >= 0; ordinal = next.ordinal()) {
      if (!cursor.matchesEvery(groups, ordinal) || cursor.matchesAny(excluded, ordinal)) continue;
      for (let i = 0; i < items.length; i++) {
        const found = cursor.seek(items[i], ordinal);
        positions.from[i] = found ? cursor.start(items[i]) : 0;
        positions.to[i] = found ? cursor.end(items[i]) : 0;
      }
      best.offer(ordinal, tsRank(positions, conjunctive, stats.lengths[ordinal]));
    }
  }
  return best.inOrder();
}

/**
 * Whether the query asks for one lexeme alone (however often it is written, as "cat OR cats"):
 * its list's matches are then ranked by their scores alone, kept with the list (scoresAlone),
 * a pass over one array.
 */
export function isOneWord(query: PositionalQuery): boolean {
  return isWordsAny(query) && new Set(query.groups[0].map((term) => term.lexemes[0])).size === 1;
}

/**
 * Offers `best` each document holding every one of the words (their lists in ts_rank's order of
 * them), but those `isExcluded` says: the rarest word's matches are the candidates, each sought
 * once in the other words' lists. The commonest query of several words; the general walk of
 * bestMatches gives the same, in nearly twice the time.
 */
function offerWordsAll(
  words: PositionalList[],
  isExcluded: (ordinal: number) => boolean,
  conjunctive: boolean,
  lengths: Uint32Array,
  best: BestOf,
): void {
  const positions: WordPositions = {
    entries: words.map((list) => list.entries),
    from: new Int32Array(words.length),
    to: new Int32Array(words.length),
  };
  const at = new Int32Array(words.length);
  const rarest = words.reduce((a, list, i) => (list.ordinals.length < words[a].ordinals.length ? i : a), 0);
  const candidates = words[rarest].ordinals;
  next: for (let c = 0; c < candidates.length; c++) {
    const ordinal = candidates[c];
    at[rarest] = c;
    for (let i = 0; i < words.length; i++) {
      if (i === rarest) continue;
      const ordinals = words[i].ordinals;
      at[i] = seekFrom(ordinals, ordinal, at[i]);
      // Past a list's last match, no candidate is left.
      if (at[i] === ordinals.length) return;
      if (ordinals[at[i]] !== ordinal) continue next;
    }
    if (isExcluded(ordinal)) continue;
    for (let i = 0; i < words.length; i++) {
      positions.from[i] = words[i].starts[at[i]];
      positions.to[i] = words[i].starts[at[i] + 1];
    }
    best.offer(ordinal, tsRank(positions, conjunctive, lengths[ordinal]));
  }
}

/**
 * Offers `best` each document holding one of the words or more (their lists in ts_rank's order
 * of them), but those `isExcluded` says, scored from the words' OR terms (keepOrTerms) rather
 * than their positions: a query of two common words ORed visits most pages, and the general
 * walk weighing every position took more than twice as long.
 */
function offerWordsAny(words: PositionalList[], isExcluded: (ordinal: number) => boolean, lengths: Uint32Array, best: BestOf): void {
  const terms = words.map(orTermsOf);
  const at = new Int32Array(words.length);
  const held = new Float64Array(words.length);
  for (;;) {
    let ordinal = -1;
    for (let i = 0; i < words.length; i++) {
      if (at[i] < words[i].ordinals.length && (ordinal < 0 || words[i].ordinals[at[i]] < ordinal)) ordinal = words[i].ordinals[at[i]];
    }
    if (ordinal < 0) return;
    let count = 0;
    for (let i = 0; i < words.length; i++) {
      if (at[i] === words[i].ordinals.length || words[i].ordinals[at[i]] !== ordinal) continue;
      held[count++] = terms[i][at[i]++];
    }
    if (!isExcluded(ordinal)) best.offer(ordinal, tsRankOfOrTerms(held, count, words.length, lengths[ordinal]));
  }
}

/**
 * Works out on this thread what a ranking thread would otherwise work out for each task: the OR
 * terms of the lists of a query of words ORed (PositionalList's orTerms). A ranking thread gets
 * new views of the lists with every task, so what it worked out would not be kept.
 */
export function keepOrTerms(query: PositionalQuery, lists: ReadonlyMap<string, PositionalList>): void {
  if (isOneWord(query) || !isWordsAny(query)) return;
  for (const term of query.groups[0]) orTermsOf(required(lists, term.lexemes[0]));
}

function orTermsOf(list: PositionalList): Float32Array {
  if (!list.orTerms) {
    // A match without positions gets 0, which adds nothing to a rank, as calc_rank_or skips it.
    const terms = new Float32Array(new SharedArrayBuffer(list.ordinals.length * 4));
    for (let i = 0; i < terms.length; i++) terms[i] = orTerm(list.entries, list.starts[i], list.starts[i + 1]);
    list.orTerms = terms;
  }
  return list.orTerms;
}

/** Whether the query is words ORed and nothing else (`lamp OR lantern -kettle`): one group, each term one word (or one word alone). */
function isWordsAny(query: PositionalQuery): boolean {
  return query.groups.length === 1 && query.groups[0].every((term) => term.lexemes.length === 1);
}

/** Whether every group of the query is one word (a term of one lexeme), as `brass lamp oil -kettle` asks. */
function isWordsAll(query: PositionalQuery): boolean {
  return query.groups.every((group) => group.length === 1 && group[0].lexemes.length === 1);
}

/**
 * Each match's ts_rank for a query of the list's lexeme alone, worked out the first time such a
 * query reads the list and kept as long as the list is: the one-word queries of a common word
 * then read its tens of thousands of scores rather than weighing every match's positions again
 * (a list never changes, and its build's lengths neither). Four bytes a match beside the list's
 * ten or more, outside the list cache's count.
 */
const scoresOfLists = new WeakMap<PositionalList, Float32Array>();

function scoresAlone(list: PositionalList, lengths: Uint32Array): Float32Array {
  let scores = scoresOfLists.get(list);
  if (!scores) {
    scores = new Float32Array(list.ordinals.length);
    const positions: WordPositions = { entries: [list.entries], from: new Int32Array(1), to: new Int32Array(1) };
    for (let i = 0; i < scores.length; i++) {
      positions.from[0] = list.starts[i];
      positions.to[0] = list.starts[i + 1];
      scores[i] = tsRank(positions, false, lengths[list.ordinals[i]]);
    }
    scoresOfLists.set(list, scores);
  }
  return scores;
}

interface CompiledTerm {
  slots: number[];
  offsets: number[];
}

function required(lists: ReadonlyMap<string, PositionalList>, lexeme: string): PositionalList {
  const list = lists.get(lexeme);
  if (!list) throw new Error(`no list for the lexeme "${lexeme}"`);
  return list;
}

/** A forward-only place in each list. */
class Cursors {
  readonly lists: PositionalList[];
  readonly #at: Int32Array;

  constructor(lists: PositionalList[]) {
    this.lists = lists;
    this.#at = new Int32Array(lists.length);
  }

  /** Moves list `s` to the first match at or after `ordinal`; whether it is that document's. */
  seek(s: number, ordinal: number): boolean {
    // Galloping: a rare word's candidates skip far in a common word's list.
    const ordinals = this.lists[s].ordinals;
    const at = seekFrom(ordinals, ordinal, this.#at[s]);
    this.#at[s] = at;
    return at < ordinals.length && ordinals[at] === ordinal;
  }

  /** Where the positions of list `s`'s current match start in its entries, and end (exclusive). */
  start(s: number): number {
    return this.lists[s].starts[this.#at[s]];
  }

  end(s: number): number {
    return this.lists[s].starts[this.#at[s] + 1];
  }

  /**
   * Whether one of the terms matches the document: each of its lexemes is there, standing at
   * the term's distances. Loops rather than callbacks: a query asks it of every candidate, tens
   * of thousands.
   */
  matchesAny(terms: CompiledTerm[], ordinal: number): boolean {
    next: for (const term of terms) {
      for (const s of term.slots) if (!this.seek(s, ordinal)) continue next;
      if (this.phraseAt(term)) return true;
    }
    return false;
  }

  /** Whether a term of every group matches the document. */
  matchesEvery(groups: CompiledTerm[][], ordinal: number): boolean {
    for (const group of groups) if (!this.matchesAny(group, ordinal)) return false;
    return true;
  }

  /** Whether the term's lexemes (each at the document, sought before) stand at its distances. */
  phraseAt(term: CompiledTerm): boolean {
    if (term.slots.length === 1) return true;
    const first = this.lists[term.slots[0]].entries;
    for (let p = this.start(term.slots[0]); p < this.end(term.slots[0]); p++) {
      const start = first[p] & 0x3fff;
      let all = true;
      for (let j = 1; j < term.slots.length && all; j++) {
        const s = term.slots[j];
        all = holds(this.lists[s].entries, this.start(s), this.end(s), start + term.offsets[j]);
      }
      if (all) return true;
    }
    return false;
  }
}

/** Whether entries[from … to − 1] (ascending) hold `position`. */
function holds(entries: Uint16Array, from: number, to: number, position: number): boolean {
  for (let i = from; i < to; i++) {
    const at = entries[i] & 0x3fff;
    if (at === position) return true;
    if (at > position) return false;
  }
  return false;
}

/**
 * The ordinals that can match, ascending and each once: those of the group with the fewest
 * postings, where a term is named by its rarest lexeme (a phrase is nowhere its words are not).
 * A cursor rather than a generator: a query reads tens of thousands of them.
 */
class Candidates {
  readonly #heads: { ordinals: Uint32Array; at: number }[];

  constructor(groups: CompiledTerm[][], lists: PositionalList[]) {
    const rarest = (term: CompiledTerm) => term.slots.reduce((a, b) => (lists[b].ordinals.length < lists[a].ordinals.length ? b : a));
    const size = (group: CompiledTerm[]) => group.reduce((sum, term) => sum + lists[rarest(term)].ordinals.length, 0);
    const driver = groups.reduce((fewest, group) => (size(group) < size(fewest) ? group : fewest));
    this.#heads = [...new Set(driver.map(rarest))].map((s) => ({ ordinals: lists[s].ordinals, at: 0 }));
  }

  /** The next candidate, or −1 past the last. */
  ordinal(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const head of this.#heads) if (head.at < head.ordinals.length && head.ordinals[head.at] < next) next = head.ordinals[head.at];
    if (next === Number.POSITIVE_INFINITY) return -1;
    for (const head of this.#heads) if (head.at < head.ordinals.length && head.ordinals[head.at] === next) head.at++;
    return next;
  }
}
