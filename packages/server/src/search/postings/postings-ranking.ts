import { BestOf, type RankedOrdinal } from './best-of.ts';
import { seekFrom } from './ordinal-seek.ts';
import type { PostingList } from './posting-list.ts';

/** A search over word lists: every group must match, a group where any of its lists does; the excluded match nothing. */
export interface ListQuery {
  groups: PostingList[][];
  /** Ordinals of the documents holding an excluded word. */
  excluded: Uint32Array[];
}

/**
 * The best `count` matches of the query, highest score first and, among equal scores, lowest
 * ordinal first, as FTS5 orders rank then rowid. A match's score is the sum of its lists'
 * scores (every list of the query, as bm25 sums over every phrase; a list without the document
 * adds nothing), added up term at a time over the generation's documents (a read and an add a
 * posting, where bm25 weighs each match anew), or, when one word is far rarer than the
 * rest, document at a time from its list (bestBySeeking).
 */
export function bestDocuments(query: ListQuery, count: number): RankedOrdinal[] {
  const lists = query.groups.flat();
  if (count <= 0 || query.groups.length === 0 || lists.length === 0) return [];
  if (lists.length === 1) return bestOfOneList(lists[0], query.excluded, count);
  const driver = query.groups.reduce((fewest, group) => (postings(group) < postings(fewest) ? group : fewest));
  if (driver.length === 1 && postings(driver) * SEEKING_PAYS < postings(lists)) return bestBySeeking(query, driver[0], count);
  return bestByAdding(query, lists, driver, count);
}

/**
 * How many times fewer postings than the query's all the driver must have for seeking its
 * documents in the other lists to beat adding up every list: a seek costs a few reads where
 * adding costs one a posting (where the two cross: bench/README.md, search).
 */
const SEEKING_PAYS = 4;

/** Every list's scores added up document by document, then the documents in every group taken from the driver's lists. */
function bestByAdding(query: ListQuery, lists: PostingList[], driver: PostingList[], count: number): RankedOrdinal[] {
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
  const wanted = query.groups.length;
  const best = new BestOf(count);
  let floor = best.floor;
  for (const { ordinals } of driver) {
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i];
      if (groupsMatched[ordinal] !== wanted || scores[ordinal] < floor) continue;
      // Offered once: a document in two of the driver's lists is seen again.
      groupsMatched[ordinal] = 0;
      best.offer(ordinal, scores[ordinal]);
      floor = best.floor;
    }
  }
  return best.inOrder();
}

/**
 * The driver's documents (its one list's, in ascending order), each sought in the other lists:
 * a rare word ANDed with common ones reads a few entries of their lists, not all of them. A
 * document's score adds its lists' scores in the order bestByAdding does, so the sums are equal.
 */
function bestBySeeking(query: ListQuery, driver: PostingList, count: number): RankedOrdinal[] {
  const { groups, excluded } = query;
  const at = groups.map((group) => new Int32Array(group.length));
  const excludedAt = new Int32Array(excluded.length);
  const best = new BestOf(count);
  let floor = best.floor;
  documents: for (let d = 0; d < driver.ordinals.length; d++) {
    // The most the document can score, added in the order of its sum, each term as large as
    // its own or larger (every list's top, the driver's score): under the floor, it is not sought.
    let most = 0;
    for (const group of groups) for (const list of group) most += list === driver ? driver.scores[d] : list.top;
    if (most < floor) continue;
    const ordinal = driver.ordinals[d];
    for (let e = 0; e < excluded.length; e++) {
      excludedAt[e] = seekFrom(excluded[e], ordinal, excludedAt[e]);
      if (excluded[e][excludedAt[e]] === ordinal) continue documents;
    }
    let score = 0;
    for (let g = 0; g < groups.length; g++) {
      let matched = false;
      for (let l = 0; l < groups[g].length; l++) {
        const list = groups[g][l];
        if (list === driver) {
          score += driver.scores[d];
          matched = true;
          continue;
        }
        const i = (at[g][l] = seekFrom(list.ordinals, ordinal, at[g][l]));
        if (list.ordinals[i] === ordinal) {
          score += list.scores[i];
          matched = true;
        }
      }
      if (!matched) continue documents;
    }
    best.offer(ordinal, score);
    floor = best.floor;
  }
  return best.inOrder();
}

/**
 * A query of one word: its list is the ranking, less the documents of the excluded words. All
 * the lists ascend, so they are walked side by side, with nothing to add up.
 */
function bestOfOneList(list: PostingList, excluded: Uint32Array[], count: number): RankedOrdinal[] {
  const best = new BestOf(count);
  const { ordinals, scores } = list;
  const next = new Array<number>(excluded.length).fill(0);
  let floor = best.floor;
  nextPosting: for (let i = 0; i < ordinals.length; i++) {
    if (scores[i] < floor) continue;
    const ordinal = ordinals[i];
    for (let e = 0; e < excluded.length; e++) {
      const out = excluded[e];
      let at = next[e];
      while (at < out.length && out[at] < ordinal) at++;
      next[e] = at;
      if (at < out.length && out[at] === ordinal) continue nextPosting;
    }
    best.offer(ordinal, scores[i]);
    floor = best.floor;
  }
  return best.inOrder();
}

/**
 * A score and two group counters a document, kept from one query to the next on this thread:
 * allocating them (zeroed, then collected) cost a query more than clearing what it uses.
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
