import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../testing/seeded-random.ts';
import { parsePhraseQuery, phraseQueryText } from '../postgres/postgres-query-terms.ts';
import { decodePositionalList, type PositionalList, PositionalListWriter } from './positional-list.ts';
import { bestMatches, keepOrTerms, type LexemePhrase } from './positional-ranking.ts';
import { RankingThreads } from './ranking-threads.ts';
import { tsRank } from './ts-rank.ts';

const A = 3 << 14;
const B = 2 << 14;

/** Lists from documents given as their lexemes' positions (title positions weigh A, the text's B). */
function listsOf(documents: Record<string, number[]>[], titleEnds: number[]): Map<string, PositionalList> {
  const writers = new Map<string, PositionalListWriter>();
  documents.forEach((document, ordinal) => {
    for (const [lexeme, positions] of Object.entries(document)) {
      if (!writers.has(lexeme)) writers.set(lexeme, new PositionalListWriter());
      writers.get(lexeme)!.add(
        ordinal,
        positions.map((p) => p | (p <= titleEnds[ordinal] ? A : B)),
      );
    }
  });
  return new Map([...writers].map(([lexeme, writer]) => [lexeme, decodePositionalList([{ matches: writer.matches, ...writer.encode() }])]));
}

const word = (lexeme: string): LexemePhrase => ({ lexemes: [lexeme], offsets: [0] });

describe('positional lists', () => {
  it('read back the ordinals, positions and weights written, across blocks', () => {
    const first = new PositionalListWriter();
    first.add(3, [A | 1, B | 7, B | 16383]);
    first.add(200, [B | 2]);
    const second = new PositionalListWriter();
    second.add(8192, []);
    second.add(9000, [A | 4, B | 5]);
    const list = decodePositionalList([first, second].map((writer) => ({ matches: writer.matches, ...writer.encode() })));
    assert.deepEqual([...list.ordinals], [3, 200, 8192, 9000]);
    assert.deepEqual([...list.starts], [0, 3, 4, 4, 6]);
    assert.deepEqual([...list.entries], [A | 1, B | 7, B | 16383, B | 2, A | 4, B | 5]);
  });
});

describe('bestMatches', () => {
  const documents: Record<string, number[]>[] = [
    { lamp: [5], oil: [6] }, // the phrase "lamp oil"
    { lamp: [2, 9], oil: [4] }, // both words, apart
    { oil: [3] },
    { lamp: [1], oil: [2], wick: [7] }, // the phrase, in the title, and wick
  ];
  const titleEnds = [0, 0, 0, 2];
  const lengths = new Uint32Array([20, 30, 10, 15]);
  const stats = { lengths };
  const lists = listsOf(documents, titleEnds);

  it('matches a phrase only where its words stand at their distances', () => {
    const phrase: LexemePhrase = { lexemes: ['lamp', 'oil'], offsets: [0, 1] };
    assert.deepEqual(
      bestMatches({ groups: [[phrase]], excluded: [] }, lists, stats, 10)
        .map((m) => m.ordinal)
        .sort(),
      [0, 3],
    );
  });

  it('needs every group, any term of a group, and none of the excluded', () => {
    const found = (groups: LexemePhrase[][], excluded: LexemePhrase[] = []) =>
      bestMatches({ groups, excluded }, lists, stats, 10)
        .map((m) => m.ordinal)
        .sort();
    assert.deepEqual(found([[word('lamp')], [word('oil')]]), [0, 1, 3]);
    assert.deepEqual(found([[word('wick'), word('lamp')]]), [0, 1, 3]);
    assert.deepEqual(found([[word('oil')]], [word('wick')]), [0, 1, 2]);
    assert.deepEqual(found([[word('oil')]], [{ lexemes: ['lamp', 'oil'], offsets: [0, 1] }]), [1, 2]);
  });

  it('ranks the best first, ties by ordinal', () => {
    const ranked = bestMatches({ groups: [[word('oil')]], excluded: [] }, lists, stats, 10);
    for (let i = 1; i < ranked.length; i++) {
      assert.ok(
        ranked[i - 1].score > ranked[i].score || (ranked[i - 1].score === ranked[i].score && ranked[i - 1].ordinal < ranked[i].ordinal),
      );
    }
    assert.equal(ranked[0].ordinal, 3, 'oil in the title weighs most');
    assert.equal(bestMatches({ groups: [[word('oil')]], excluded: [] }, lists, stats, 2).length, 2);
  });

  it("scores a word alone as ts_rank weighs each match's positions, again the same from the scores kept with its list", () => {
    const lamp = lists.get('lamp')!;
    const expected = [...lamp.ordinals]
      .map((ordinal, i) => {
        const positions = { entries: [lamp.entries], from: Int32Array.of(lamp.starts[i]), to: Int32Array.of(lamp.starts[i + 1]) };
        return { ordinal, score: tsRank(positions, false, lengths[ordinal]) };
      })
      .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
    const scored = (groups: LexemePhrase[][], excluded: LexemePhrase[] = []) =>
      bestMatches({ groups, excluded }, lists, stats, 10).map(({ ordinal, score }) => ({ ordinal, score }));
    assert.deepEqual(scored([[word('lamp')]]), expected);
    assert.deepEqual(scored([[word('lamp')]]), expected, 'asked again');
    assert.deepEqual(scored([[word('lamp'), word('lamp')]]), expected, 'written twice in a group');
    assert.deepEqual(
      scored([[word('lamp')]], [word('wick')]),
      expected.filter((match) => match.ordinal !== 3),
    );
    assert.deepEqual(scored([[word('lamp')]], [word('lamp')]), []);
  });
});

describe('bestMatches over many documents', () => {
  // Two words at random places, most pages holding both, lengths far apart.
  const random = mulberry32(5);
  const documents: Record<string, number[]>[] = [];
  const lengths: number[] = [];
  for (let d = 0; d < 400; d++) {
    const positions = () =>
      [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => 1 + Math.floor(random() * 60)))].sort((a, b) => a - b);
    documents.push(random() < 0.7 ? { lamp: positions(), oil: positions() } : { lamp: positions() });
    lengths.push(10 + Math.floor(random() * 3000));
  }
  const titleEnds = documents.map(() => 3);
  const stats = { lengths: Uint32Array.from(lengths) };
  const lists = listsOf(documents, titleEnds);

  /** Every document holding both words ranked by tsRank, best first. */
  const everyDocument = (conjunctive: boolean) => {
    const [lamp, oil] = [lists.get('lamp')!, lists.get('oil')!];
    return [...oil.ordinals]
      .map((ordinal, i) => {
        const l = [...lamp.ordinals].indexOf(ordinal);
        const positions = {
          entries: [lamp.entries, oil.entries],
          from: Int32Array.of(lamp.starts[l], oil.starts[i]),
          to: Int32Array.of(lamp.starts[l + 1], oil.starts[i + 1]),
        };
        return { ordinal, score: tsRank(positions, conjunctive, lengths[ordinal]) };
      })
      .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
  };

  it('ranks words ANDed as scoring every document would, for any window', () => {
    const expected = everyDocument(true);
    for (const count of [1, 5, 11, 300]) {
      const ranked = bestMatches({ groups: [[word('lamp')], [word('oil')]], excluded: [] }, lists, stats, count);
      assert.deepEqual(
        ranked.map(({ ordinal, score }) => ({ ordinal, score })),
        expected.slice(0, count),
      );
    }
  });

  // "wick" on half of the first hundred pages only (a few of them without positions), "brass" on every third.
  const more: Record<string, number[]>[] = documents.map((document, d) => ({
    ...document,
    ...(d < 100 && random() < 0.5 ? { wick: d % 7 === 0 ? [] : [61 + (d % 5)] } : {}),
    ...(d % 3 === 0 ? { brass: [70] } : {}),
  }));
  const moreLists = listsOf(more, titleEnds);

  it('ranks words that must all be there by their own walk as by the general one, with exclusions, and lists that end early', () => {
    const phrase: LexemePhrase = { lexemes: ['lamp', 'oil'], offsets: [0, 1] };
    const queries = [
      { groups: [[word('lamp')], [word('oil')]], excluded: [] },
      { groups: [[word('oil')], [word('lamp')], [word('wick')]], excluded: [] },
      { groups: [[word('wick')], [word('lamp')]], excluded: [word('brass')] },
      { groups: [[word('lamp')], [word('oil')]], excluded: [phrase, word('wick')] },
      { groups: [[word('oil')], [word('oil')]], excluded: [] },
    ];
    for (const query of queries) {
      // A group of one term written twice asks the same, and takes the general walk.
      const general = { ...query, groups: query.groups.map(([term]) => [term, term]) };
      for (const count of [1, 10, 400]) {
        const ranked = bestMatches(query, moreLists, stats, count);
        assert.deepEqual(ranked, bestMatches(general, moreLists, stats, count), `${JSON.stringify(query)}, ${count}`);
        if (count === 400) assert.ok(ranked.length > 0 && ranked.length < 400, JSON.stringify(query));
      }
    }
  });

  it('ranks words ORed from the terms kept with their lists as weighing every position would, on a ranking thread too', async () => {
    const words = ['lamp', 'oil', 'wick'];
    const query = { groups: [[word('wick'), word('oil'), word('lamp')]], excluded: [word('brass')] };
    const expected = more
      .map((document, ordinal) => ({ document, ordinal }))
      .filter(({ document }) => words.some((w) => document[w]) && !document.brass)
      .map(({ ordinal }) => {
        const positions = { entries: words.map((w) => moreLists.get(w)!.entries), from: new Int32Array(3), to: new Int32Array(3) };
        words.forEach((w, i) => {
          const list = moreLists.get(w)!;
          const at = [...list.ordinals].indexOf(ordinal);
          if (at >= 0) [positions.from[i], positions.to[i]] = [list.starts[at], list.starts[at + 1]];
        });
        return { ordinal, score: tsRank(positions, false, lengths[ordinal]) };
      })
      .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
    assert.ok(
      more.some((document) => document.wick?.length === 0 && !document.brass),
      'a match without positions is among them',
    );
    const shared = { lengths: new Uint32Array(new SharedArrayBuffer(lengths.length * 4)) };
    shared.lengths.set(lengths);
    const threads = new RankingThreads();
    assert.deepEqual(await threads.rank(query, moreLists, shared, 11), expected.slice(0, 11), 'terms worked out on the thread');
    keepOrTerms(query, moreLists);
    assert.ok(moreLists.get('wick')!.orTerms);
    for (const count of [1, 10, 400]) assert.deepEqual(bestMatches(query, moreLists, stats, count), expected.slice(0, count));
    assert.deepEqual(await threads.rank(query, moreLists, shared, 11), expected.slice(0, 11), 'terms kept with the lists');
  });

  it('ranks on a ranking thread, reading the lists where they are, as on the event loop', async () => {
    // The stats in shared memory, as PostgresWordPostings reads them; the lists are decoded so.
    const shared = { lengths: new Uint32Array(new SharedArrayBuffer(lengths.length * 4)) };
    shared.lengths.set(lengths);
    assert.ok(lists.get('lamp')!.ordinals.buffer instanceof SharedArrayBuffer);
    const threads = new RankingThreads();
    for (const query of [
      { groups: [[word('lamp')], [word('oil')]], excluded: [] },
      { groups: [[word('oil'), word('lamp')]], excluded: [] },
    ]) {
      assert.deepEqual(await threads.rank(query, lists, shared, 11), bestMatches(query, lists, stats, 11));
    }
  });
});

describe('parsePhraseQuery', () => {
  it("reads phraseto_tsquery's words and distances, quotes and backslashes as tsqueryout writes them", () => {
    assert.deepEqual(parsePhraseQuery("'lamp'"), { lexemes: ['lamp'], offsets: [0] });
    assert.deepEqual(parsePhraseQuery("'big-deal' <-> 'big' <-> 'deal' <2> 'cat'"), {
      lexemes: ['big-deal', 'big', 'deal', 'cat'],
      offsets: [0, 1, 2, 4],
    });
    assert.deepEqual(parsePhraseQuery("'o''reilli' <-> 'a\\\\b'"), { lexemes: ["o'reilli", 'a\\b'], offsets: [0, 1] });
  });

  it('writes a phrase back as tsquery text that reads the same', () => {
    for (const text of ["'lamp'", "'big-deal' <1> 'big' <1> 'deal' <2> 'cat'", "'o''reilli' <1> 'a\\\\b'"]) {
      const phrase = parsePhraseQuery(text) as LexemePhrase;
      assert.equal(phraseQueryText(phrase), text);
      assert.deepEqual(parsePhraseQuery(phraseQueryText(phrase)), phrase);
    }
  });

  it('calls a term of stop words alone such, and anything but a phrase other', () => {
    assert.equal(parsePhraseQuery(''), 'stop words');
    assert.equal(parsePhraseQuery("'a' & 'b'"), 'other');
    assert.equal(parsePhraseQuery("( 'a' | 'b' )"), 'other');
    assert.equal(parsePhraseQuery("'a':*"), 'other');
  });
});
