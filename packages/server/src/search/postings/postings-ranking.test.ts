import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { mulberry32 } from '../../testing/seeded-random.ts';
import {
  decodeOrdinals,
  decodeScores,
  decodeSharedList,
  encodeOrdinals,
  encodeScores,
  type PostingList,
  postingList,
} from './posting-list.ts';
import { bestDocuments } from './postings-ranking.ts';

const list = (entries: Record<number, number>): PostingList => {
  const ordinals = Object.keys(entries)
    .map(Number)
    .sort((a, b) => a - b);
  return postingList(Uint32Array.from(ordinals), Float32Array.from(ordinals.map((o) => entries[o])));
};

const DOCUMENTS = 4000;

function randomList(random: () => number, size: number, score: () => number): PostingList {
  const entries: Record<number, number> = {};
  while (Object.keys(entries).length < size) entries[Math.floor(random() * DOCUMENTS)] = score();
  return list(entries);
}

/** Every document's score added up list by list, in the query's order, then sorted: what any way of ranking must answer. */
function everyDocumentRanked({ groups, excluded }: { groups: PostingList[][]; excluded: Uint32Array[] }, count: number) {
  const found: { ordinal: number; score: number }[] = [];
  for (let ordinal = 0; ordinal < DOCUMENTS; ordinal++) {
    if (excluded.some((out) => out.includes(ordinal))) continue;
    let score = 0;
    const everyGroup = groups.every((group) => {
      let matched = false;
      for (const { ordinals, scores } of group) {
        const at = ordinals.indexOf(ordinal);
        if (at >= 0) [score, matched] = [score + scores[at], true];
      }
      return matched;
    });
    if (everyGroup) found.push({ ordinal, score });
  }
  return found.sort((x, y) => y.score - x.score || x.ordinal - y.ordinal).slice(0, count);
}

describe('posting lists', () => {
  it('round-trip ordinals from 0 to 2³² − 1 and float32 scores', () => {
    for (const ordinals of [[], [0], [0, 1, 2], [127, 128, 16_383, 16_384, 2 ** 21, 2 ** 32 - 1]]) {
      const bytes = encodeOrdinals(ordinals);
      assert.deepEqual([...decodeOrdinals(bytes, ordinals.length)], ordinals);
    }
    assert.equal(encodeOrdinals([0, 1, 2, 3]).length, 4, 'a byte a close ordinal');
    const scores = [0, 1.5, -2.25, 3.4028234663852886e38];
    assert.deepEqual([...decodeScores(encodeScores(scores), scores.length)], scores);
    // Bytes that do not start on a float (a blob inside a larger buffer) read the same.
    const shifted = new Uint8Array(17);
    shifted.set(encodeScores(scores), 1);
    assert.deepEqual([...decodeScores(shifted.subarray(1), scores.length)], scores);
  });

  it('decode into one shared memory that a thread reads as posted, ordinals beside scores', async () => {
    const ordinals = [0, 5, 300, 2 ** 20];
    const scores = [1.5, -2.25, 0, 7];
    const list = decodeSharedList(encodeOrdinals(ordinals), encodeScores(scores), ordinals.length);
    assert.ok(list.ordinals.buffer instanceof SharedArrayBuffer);
    assert.equal(list.scores.buffer, list.ordinals.buffer);
    assert.deepEqual([[...list.ordinals], [...list.scores]], [ordinals, scores]);
    // Posted, the list is the same memory, not a copy: a write on one side shows on the other.
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<PostingList>((resolve) => port2.once('message', resolve));
    port1.postMessage(list);
    const posted = await received;
    port1.close();
    posted.scores[0] = 42;
    assert.equal(list.scores[0], 42);
  });

  it('refuse ordinals out of order', () => {
    assert.throws(() => encodeOrdinals([3, 2]), RangeError);
    assert.throws(() => encodeOrdinals([3, 3]), RangeError);
  });
});

describe('bestDocuments', () => {
  it('ranks by summed score, then by ordinal among equal scores', () => {
    const a = list({ 1: 1, 2: 3, 3: 2, 9: 2 });
    const b = list({ 2: 1, 3: 2, 9: 2, 10: 5 });
    assert.deepEqual(
      bestDocuments({ groups: [[a], [b]], excluded: [] }, 10),
      [
        { ordinal: 3, score: 4 },
        { ordinal: 9, score: 4 },
        { ordinal: 2, score: 4 },
      ].sort((x, y) => y.score - x.score || x.ordinal - y.ordinal),
    );
  });

  it('keeps the best `count` of many, as a full sort would', () => {
    const entries: Record<number, number> = {};
    for (let i = 0; i < 5000; i++) entries[i * 3] = (i * 7919) % 101;
    const all = bestDocuments({ groups: [[list(entries)]], excluded: [] }, 5000);
    const expected = Object.entries(entries)
      .map(([ordinal, score]) => ({ ordinal: Number(ordinal), score }))
      .sort((x, y) => y.score - x.score || x.ordinal - y.ordinal);
    assert.deepEqual(all, expected);
    assert.deepEqual(bestDocuments({ groups: [[list(entries)]], excluded: [] }, 11), expected.slice(0, 11));
  });

  it('matches a group when any of its lists does, once, and sums every list holding the document', () => {
    const a = list({ 1: 1, 2: 1 });
    const b = list({ 2: 2, 3: 3 });
    assert.deepEqual(bestDocuments({ groups: [[a, b]], excluded: [] }, 10), [
      { ordinal: 2, score: 3 },
      { ordinal: 3, score: 3 },
      { ordinal: 1, score: 1 },
    ]);
    // The same list in two groups counts twice, as FTS5 counts a phrase written twice.
    assert.deepEqual(bestDocuments({ groups: [[a], [a]], excluded: [] }, 1), [{ ordinal: 1, score: 2 }]);
  });

  it('leaves out the documents of every excluded word from a one-word query', () => {
    const a = list({ 1: 5, 2: 4, 3: 3, 7: 2, 8: 1 });
    assert.deepEqual(bestDocuments({ groups: [[a]], excluded: [Uint32Array.of(0, 2), Uint32Array.of(3, 4, 8, 50)] }, 10), [
      { ordinal: 1, score: 5 },
      { ordinal: 7, score: 2 },
    ]);
  });

  it('starts every query from nothing, after a larger one', () => {
    const big = list({ 1: 1, 4000: 9 });
    const other = list({ 1: 2, 4000: 9 });
    assert.deepEqual(bestDocuments({ groups: [[big], [other]], excluded: [] }, 1), [{ ordinal: 4000, score: 18 }]);
    const small = list({ 1: 1, 2: 1 });
    assert.deepEqual(bestDocuments({ groups: [[small], [small]], excluded: [] }, 10), [
      { ordinal: 1, score: 2 },
      { ordinal: 2, score: 2 },
    ]);
  });

  it('ranks a rare word ANDed with common ones (seeking its documents in their lists) as adding up every list does', () => {
    const random = mulberry32(3);
    const score = () => Math.fround(random() * 8);
    const rare = randomList(random, 60, score);
    const [common, other, third] = [randomList(random, 2500, score), randomList(random, 1800, score), randomList(random, 900, score)];
    const queries = [
      { groups: [[common], [rare]], excluded: [] },
      { groups: [[other, third], [rare], [common]], excluded: [third.ordinals] },
      { groups: [[rare], [rare, common]], excluded: [] },
      // No word far rarer than the others: added up.
      { groups: [[common], [other]], excluded: [rare.ordinals] },
    ];
    for (const query of queries) {
      for (const count of [1, 10, 5000]) assert.deepEqual(bestDocuments(query, count), everyDocumentRanked(query, count));
    }
  });

  it('keeps, of documents tied with the worst kept, those of lower ordinals, whichever list offers them first', () => {
    // Scores of four values: most documents tie, and a group's second list offers lower ordinals than its first kept.
    const random = mulberry32(11);
    const score = () => Math.floor(random() * 4);
    const [a, b, c, d] = [
      randomList(random, 700, score),
      randomList(random, 600, score),
      randomList(random, 2500, score),
      randomList(random, 300, score),
    ];
    const queries = [
      { groups: [[a]], excluded: [] },
      { groups: [[a]], excluded: [d.ordinals] },
      { groups: [[a, b], [c]], excluded: [] },
      { groups: [[b, a], [c]], excluded: [d.ordinals] },
      { groups: [[d], [c]], excluded: [] },
    ];
    for (const query of queries) {
      for (const count of [1, 7, 50]) assert.deepEqual(bestDocuments(query, count), everyDocumentRanked(query, count));
    }
  });

  it('leaves out documents of an excluded word, and answers nothing for no count or no match', () => {
    const a = list({ 1: 5, 2: 4, 3: 3 });
    assert.deepEqual(bestDocuments({ groups: [[a]], excluded: [Uint32Array.of(1, 3, 99)] }, 10), [{ ordinal: 2, score: 4 }]);
    assert.deepEqual(bestDocuments({ groups: [[a]], excluded: [] }, 0), []);
    assert.deepEqual(bestDocuments({ groups: [[a], [list({ 4: 1 })]], excluded: [] }, 10), []);
    assert.deepEqual(bestDocuments({ groups: [[list({})]], excluded: [] }, 10), []);
  });
});
