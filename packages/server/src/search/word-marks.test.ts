import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { wordMarks } from './word-marks.ts';

const words = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `w${from + i}`).join(' ');

describe('word marks', () => {
  it("mark where the 1st, 33rd, 65th… word starts, in characters from 1", () => {
    assert.deepEqual(wordMarks(''), [1]);
    assert.deepEqual(wordMarks(words(32)), [1]);
    const text = words(70);
    assert.deepEqual(
      wordMarks(text).map((at) => text.slice(at - 1).split(' ')[0]),
      ['w1', 'w33', 'w65'],
    );
  });

  it('count a word between two spaces (empty) as string_to_array does, and a character beyond the BMP as one', () => {
    const text = `😀 ${'a '.repeat(30)} b c`;
    // Words: 😀, 30 × a, '' (the double space), b, c: b is the 33rd, one character after the 😀.
    assert.deepEqual(wordMarks(text), [1, 3 + 60 + 1]);
    assert.equal([...text][3 + 60], 'b');
  });
});

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`search_text_words (${dialect})`, () => {
    let store: TestDatabase;
    before(async () => {
      store = await openTestDatabase(dialect);
    });
    after(() => store.close());

    it("cuts the words the whole text's split gives, with its marks and without", async () => {
      const texts = [
        '',
        ' ',
        words(5),
        words(32),
        words(33),
        words(100),
        ` ${words(40)}  ${words(40, 41)} `,
        `😀 ${'é '.repeat(40)}  ${words(30)}😀 end`,
        `${'x'.repeat(50)} ${words(64)}`,
      ];
      const ranges: [number, number][] = [];
      for (const from of [1, 2, 31, 32, 33, 34, 64, 65, 66, 80, 97, 120]) for (const span of [0, 1, 30, 60]) ranges.push([from, from + span]);
      ranges.push([5, 4], [40, 1]);
      const { rows } = await sql<{ whole: string; marked: string; unmarked: string; text: number; from: number; to: number }>`
        SELECT t.n AS text, r.f AS from, r.l AS to,
          array_to_string((string_to_array(t.body, ' '))[r.f : r.l], ' ') AS whole,
          search_text_words(t.body, t.marks::integer[], r.f, r.l) AS marked,
          search_text_words(t.body, NULL, r.f, r.l) AS unmarked
        FROM unnest(${texts}::text[], ${texts.map((text) => `{${wordMarks(text).join(',')}}`)}::text[]) WITH ORDINALITY AS t(body, marks, n)
        CROSS JOIN unnest(${ranges.map(([from]) => from)}::int[], ${ranges.map(([, to]) => to)}::int[]) AS r(f, l)
      `.execute(store.database.db);
      assert.equal(rows.length, texts.length * ranges.length);
      for (const row of rows) {
        assert.equal(row.marked, row.whole, `text ${row.text}, words ${row.from}–${row.to}`);
        assert.equal(row.unmarked, row.whole);
      }
    });
  });
}
