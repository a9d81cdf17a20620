import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { testDialects } from '../../testing/test-dialects.ts';
import { prefixesOfWordsStemmedTo } from '../snippets/text-snippet.ts';
import { englishSample, lexemeOf, plainTermReading } from './postgres-english.ts';
import { PostgresQueryTerms, parsePhraseQuery } from './postgres-query-terms.ts';

describe("PostgreSQL's english configuration computed here", () => {
  it('reads a term of plain words as lexemes at their distances, stop words keeping their places', () => {
    assert.deepEqual(plainTermReading('Lanterns'), { lexemes: ['lantern'], offsets: [0] });
    assert.deepEqual(plainTermReading('the lamp of  the oil'), { lexemes: ['lamp', 'oil'], offsets: [0, 3] });
    assert.equal(plainTermReading('of the'), null);
  });

  it('leaves to the database a term of anything but ASCII letters and spaces', () => {
    for (const term of ['well-kept', 'mp3', "O'Reilly", 'example.com', 'café', ' lamp', 'lamp ', 'lamp\toil', 'lamp\u00a0oil', '']) {
      assert.equal(plainTermReading(term), undefined, JSON.stringify(term));
    }
  });
});

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`PostgreSQL's english configuration against PostgreSQL (${dialect})`, () => {
    let store: TestDatabase;
    before(async () => {
      store = await openTestDatabase(dialect);
    });
    after(() => store.close());

    it("stems a word as the english configuration's dictionary does", async () => {
      const words = [...englishSample(), 'CAFÉS', '2024', 'mp3s'];
      const { rows } = await sql<{ word: string; lexemes: string[] | null }>`
        SELECT w AS word, ts_lexize('english_stem', lower(w)) AS lexemes FROM unnest(${words}::text[]) AS w`.execute(store.database.db);
      let compared = 0;
      for (const { word, lexemes } of rows) {
        if (!lexemes || lexemes.length === 0) continue; // a stop word
        assert.equal(lexemeOf(word), lexemes[0], word);
        // The rule snippets/text-snippet.ts finds candidate tokens by.
        assert.ok(
          prefixesOfWordsStemmedTo(lexemes[0]).some((prefix) => word.toLowerCase().startsWith(prefix)),
          `${word} → ${lexemes[0]}`,
        );
        compared++;
      }
      assert.ok(compared > 1000, `${compared} words compared`);
    });

    it('reads terms of plain words as phraseto_tsquery does, and so is trusted by the query terms', async () => {
      const sample = englishSample();
      const terms = ['lamp of oil', 'The Lanterns', 'of the', 'running  runners ran', 'a b c d e f', 'skies and dying', sample.join(' ')];
      for (let i = 0; i < 300; i++)
        terms.push(
          [sample[(i * 7) % sample.length], sample[(i * 13 + 5) % sample.length], sample[(i * 31 + 11) % sample.length]].join(' '),
        );
      const { rows } = await sql<{ term: string; query: string }>`
        SELECT t AS term, phraseto_tsquery('english', t)::text AS query FROM unnest(${terms}::text[]) AS t`.execute(store.database.db);
      for (const { term, query } of rows) {
        const read = parsePhraseQuery(query);
        assert.deepEqual(plainTermReading(term), read === 'stop words' ? null : read, term);
      }
      // Once the database read the sample alike, a term of plain words needs it no more.
      const connection = store.connect();
      const queryTerms = new PostgresQueryTerms(connection);
      assert.deepEqual((await queryTerms.read([{ text: 'lamp of oil', quoted: true }])).get('lamp of oil'), {
        lexemes: ['lamp', 'oil'],
        offsets: [0, 2],
      });
      await connection.close();
      assert.deepEqual((await queryTerms.read([{ text: 'Dying Lanterns', quoted: true }])).get('Dying Lanterns'), {
        lexemes: ['die', 'lantern'],
        offsets: [0, 1],
      });
      await assert.rejects(queryTerms.read([{ text: 'mp3', quoted: false }]), 'a term of other words is asked of the database');
    });
  });
}
