import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuotedLexemeReader } from './quoted-lexeme.ts';
import { forEachLexeme } from './tsvector-text.ts';

describe('quoted lexemes', () => {
  it('read a lexeme with its doubled quotes and backslash escapes, and say where the text goes on', () => {
    const reader = new QuotedLexemeReader();
    const text = "'lamp' 'it''s' 'a\\\\b\\'c' ''''";
    const read: string[] = [];
    for (let at = 0; at < text.length; at = reader.end + 1) {
      assert.ok(reader.read(text, at));
      read.push(reader.lexeme);
    }
    assert.deepEqual(read, ['lamp', "it's", "a\\b'c", "'"]);
  });

  it('refuse a lexeme that is not closed', () => {
    const reader = new QuotedLexemeReader();
    for (const text of ["'lamp", "'it''", "'a\\'"]) assert.equal(reader.read(text, 0), false, text);
  });

  it('are read out of a tsvector with their positions and weights', () => {
    const seen: [string, number[]][] = [];
    forEachLexeme("'it''s':1A 'a\\\\b':2,3B 'oil'", (lexeme, positions) => seen.push([lexeme, [...positions]]));
    assert.deepEqual(seen, [
      ["it's", [(3 << 14) | 1]],
      ['a\\b', [2, (2 << 14) | 3]],
      ['oil', []],
    ]);
    assert.throws(() => forEachLexeme("'open:1", () => {}), SyntaxError);
  });
});
