import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { mulberry32 } from '../../testing/seeded-random.ts';
import { testDatabaseUrl } from '../../testing/test-database.ts';
import { testDialects } from '../../testing/test-dialects.ts';
import { forEachLexeme } from '../postgres/tsvector-text.ts';
import { compareLexemes, tsRank } from './ts-rank.ts';

/** Words the english configuration keeps as they are (no stem, no stop word). */
const WORDS = ['lamp', 'oil', 'wick', 'glass', 'brass', 'flame', 'hook', 'shelf', 'copper', 'kettl'];

function randomText(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** Queries with the operator at their top, and their distinct words. */
const QUERIES: { tsquery: string; conjunctive: boolean; words: string[] }[] = [
  { tsquery: 'lamp', conjunctive: false, words: ['lamp'] },
  { tsquery: 'kettl', conjunctive: false, words: ['kettl'] },
  { tsquery: 'lamp & oil', conjunctive: true, words: ['lamp', 'oil'] },
  { tsquery: 'wick & lamp & brass', conjunctive: true, words: ['wick', 'lamp', 'brass'] },
  { tsquery: 'lamp | oil', conjunctive: false, words: ['lamp', 'oil'] },
  { tsquery: 'flame | hook | copper', conjunctive: false, words: ['flame', 'hook', 'copper'] },
  { tsquery: '(lamp | oil) & glass', conjunctive: true, words: ['lamp', 'oil', 'glass'] },
  { tsquery: 'lamp <-> oil', conjunctive: true, words: ['lamp', 'oil'] },
  { tsquery: 'shelf <2> copper', conjunctive: true, words: ['shelf', 'copper'] },
  { tsquery: 'lamp & lamp', conjunctive: true, words: ['lamp'] },
];

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`ts_rank computed from positions (${dialect})`, () => {
    let client: pg.Client;
    before(async () => {
      client = new pg.Client({ connectionString: testDatabaseUrl() });
      await client.connect();
    });
    after(() => client.end());

    it('gives the very scores PostgreSQL gives, on 300 documents of titles and texts of every length', async () => {
      const random = mulberry32(5);
      const documents = Array.from({ length: 300 }, (_, i) => ({
        title: randomText(random, 1 + Math.floor(random() * 6)),
        // Up to 600 words: a word then has more positions than its first few, and lengths vary.
        body: randomText(random, i % 10 === 0 ? 600 : 1 + Math.floor(random() * 80)),
      }));
      let compared = 0;
      for (const query of QUERIES) {
        const { rows } = await client.query<{ text: string; rank: number; matches: boolean }>(
          `SELECT v::text AS text, ts_rank(v, to_tsquery('english', $3), 1)::float8 AS rank, v @@ to_tsquery('english', $3) AS matches
           FROM unnest($1::text[], $2::text[]) AS d(title, body),
             LATERAL (SELECT setweight(to_tsvector('english', d.title), 'A') || setweight(to_tsvector('english', d.body), 'B') AS v) vector`,
          [documents.map((d) => d.title), documents.map((d) => d.body), query.tsquery],
        );
        const items = [...query.words].sort(compareLexemes);
        for (const row of rows) {
          if (!row.matches) continue;
          const positions = new Map<string, Uint16Array>();
          let length = 0;
          forEachLexeme(row.text, (lexeme, entries) => {
            positions.set(lexeme, entries);
            length += entries.length;
          });
          const words = items.map((item) => positions.get(item) ?? new Uint16Array(0));
          const ranges = { entries: words, from: new Int32Array(words.length), to: Int32Array.from(words, (entries) => entries.length) };
          const mine = tsRank(ranges, query.conjunctive, length);
          assert.equal(mine, row.rank, `${query.tsquery} on ${row.text}`);
          compared++;
        }
      }
      assert.ok(compared > 1500, `only ${compared} matches compared`);
    });
  });
}

describe('compareLexemes', () => {
  it("orders lexemes by their bytes, a prefix before the longer, as PostgreSQL's tsCompareString", () => {
    assert.deepEqual(['lampe', 'lamp', 'Lamp', 'la', 'é', 'z'].sort(compareLexemes), ['Lamp', 'la', 'lamp', 'lampe', 'z', 'é']);
  });
});

describe('forEachLexeme', () => {
  it('reads lexemes with quotes and backslashes, positions and weights as tsvectorout writes them', () => {
    const seen: [string, number[]][] = [];
    forEachLexeme(`'/a':12A 'back\\\\slash':21B 'dog':13A,15,18C 'o''reilli':20B 'nopos'`, (lexeme, positions) =>
      seen.push([lexeme, [...positions]]),
    );
    assert.deepEqual(seen, [
      ['/a', [(3 << 14) | 12]],
      ['back\\slash', [(2 << 14) | 21]],
      ['dog', [(3 << 14) | 13, 15, (1 << 14) | 18]],
      ["o'reilli", [(2 << 14) | 20]],
      ['nopos', []],
    ]);
  });
});
