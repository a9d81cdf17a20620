import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { mulberry32 } from '../testing/seeded-random.ts';
import { LiteralPrefilter } from './literal-prefilter.ts';
import { StringMatcher } from './string-matcher.ts';

const needs = (pattern: string) => JSON.parse(JSON.stringify(LiteralPrefilter.forCaseInsensitive(pattern) ?? null));

describe('literal prefilter', () => {
  it('reads the prefilter tree of the re2js installed (else every expression would run without one)', () => {
    assert.equal(LiteralPrefilter.enabled, true);
  });

  it('finds the lower-cased strings an expression needs: all of a sequence, one of an alternation', () => {
    assert.deepEqual(needs('\\b(lorem ipsum|dolor sit amet|TODO:)'), {
      any: [{ has: 'lorem ipsum' }, { has: 'dolor sit amet' }, { has: 'todo:' }],
    });
    assert.deepEqual(needs('<iframe[^>]+src="http:'), { all: [{ has: '<iframe' }, { has: 'src="http:' }] });
    assert.deepEqual(needs('max-age=(\\d{1,2})\\b'), { has: 'max-age=' });
  });

  it('needs nothing of an expression that can match without a fixed string, or whose strings are not ASCII', () => {
    assert.equal(needs('(a|e)+\\s+(a|e)*'), null);
    assert.equal(needs('x*|abc'), null);
    assert.equal(needs('[a-z]+'), null);
    assert.equal(needs('café|tea'), null);
    assert.equal(needs('(?i)abc'), null);
  });

  it('relies on lower-casing: of the non-ASCII characters, RE2 folds only ſ and the Kelvin sign into printable ASCII', () => {
    // The prefilter looks for ASCII strings in the lower-cased text. That is sound if every
    // character a case-insensitive ASCII letter matches lower-cases to that letter; ſ does not
    // (it stays ſ), which is why a text holding it is always left to the expression.
    const foldsToAscii = RE2JS.compile('^[\\x20-\\x7e]$', RE2JS.CASE_INSENSITIVE);
    const found: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      if (foldsToAscii.test(character)) found.push(`${character}→${character.toLowerCase()}`);
    }
    assert.deepEqual(found, ['ſ→ſ', '\u212a→k']);
  });

  it('leaves a text holding ſ or the Kelvin sign to the expression', () => {
    const matcher = (pattern: string) => new StringMatcher({ matches: pattern, caseSensitive: false } as never);
    for (const [pattern, text] of [
      ['sit amet', 'dolor ſit amet'],
      ['key:', 'a \u212aEY: here'],
      ['TODO:', 'tOdO: x'],
    ]) {
      assert.equal(RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).test(text), true, `${pattern} on ${text}`);
      assert.equal(
        matcher(pattern).test(text, () => text.toLowerCase()),
        true,
        `${pattern} on ${text}`,
      );
    }
  });

  it('never changes a case-insensitive test: 20,000 random expressions and texts decide as RE2 alone does', () => {
    const random = mulberry32(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const atoms = [
      'a',
      'b',
      'A',
      'S',
      's',
      'k',
      'K',
      ':',
      ' ',
      'ab',
      'Sa',
      'ks',
      '.',
      '\\b',
      '^',
      '$',
      '[ab]',
      '\\w',
      '\\s',
      '(?-i:S)',
      'é',
      'σ',
    ];
    const pattern = (depth: number): string => {
      const roll = random();
      if (depth > 3 || roll < 0.35) return pick(atoms);
      if (roll < 0.55) return `${pattern(depth + 1)}${pattern(depth + 1)}`;
      if (roll < 0.7) return `(${pattern(depth + 1)}|${pattern(depth + 1)})`;
      if (roll < 0.85) return `(?:${pattern(depth + 1)})${pick(['*', '+', '?', '{2}', '{1,3}', '{0,2}'])}`;
      return `(${pattern(depth + 1)}${pattern(depth + 1)})`;
    };
    const letters = ['a', 'b', 'A', 'B', 's', 'S', 'ſ', 'k', 'K', '\u212a', ':', ' ', 'é', 'É', 'İ', 'ı', 'Σ', 'ς', 'σ'];
    const text = () => Array.from({ length: Math.floor(random() * 12) }, () => pick(letters)).join('');
    let prefiltered = 0;
    for (let i = 0; i < 20_000; i++) {
      const expression = pattern(0);
      const matcher = new StringMatcher({ matches: expression, caseSensitive: false } as never);
      if (LiteralPrefilter.forCaseInsensitive(expression)) prefiltered++;
      const regex = RE2JS.compile(expression, RE2JS.CASE_INSENSITIVE);
      for (let j = 0; j < 5; j++) {
        const sample = text();
        assert.equal(
          matcher.test(sample, () => sample.toLowerCase()),
          regex.test(sample),
          `/${expression}/i on ${JSON.stringify(sample)}`,
        );
      }
    }
    assert.ok(prefiltered > 5_000, `only ${prefiltered} expressions had a prefilter: the test would prove little`);
  });
});
