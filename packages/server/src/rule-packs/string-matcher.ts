import type { StringTest } from '@loupe/contract';
import { RE2JS } from 're2js';
import { clip } from './clip.ts';
import { LiteralPrefilter } from './literal-prefilter.ts';

const SAMPLE_CHARS = 200;
/**
 * Matches counted for evidence. Locating matches takes re2js's NFA, about 3 MB/s against
 * the tens of MB/s of the DFA that decides whether there is one, so counting stops here.
 */
const MAX_COUNTED = 100;
/** An expression that matches the empty string finds it at every position: stop looking after this many. */
const MAX_FINDS = 10_000;

export interface StringFindings {
  /** Up to `limit` matched substrings (empty matches left out). */
  samples: string[];
  total: number;
}

/**
 * A compiled string test (equals, contains or an RE2 expression). `lower` gives the text
 * lower-cased, so a case-insensitive test on a page's text lower-cases it once per page
 * rather than once per rule.
 */
export class StringMatcher {
  readonly #test: StringTest;
  readonly #needle: string;
  readonly #regex: RE2JS | undefined;
  readonly #prefilter: LiteralPrefilter | undefined;

  /** Throws RE2JS's syntax error for an expression RE2 rejects. */
  constructor(test: StringTest, regexCache?: Map<string, RE2JS>) {
    this.#test = test;
    const literal = test.equals ?? test.contains ?? '';
    this.#needle = test.caseSensitive ? literal : literal.toLowerCase();
    if (test.matches !== undefined) {
      const flags = test.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
      const key = `${flags}:${test.matches}`;
      let regex = regexCache?.get(key);
      if (!regex) {
        regex = RE2JS.compile(test.matches, flags);
        regexCache?.set(key, regex);
      }
      this.#regex = regex;
      this.#prefilter = test.caseSensitive ? undefined : LiteralPrefilter.forCaseInsensitive(test.matches);
    }
  }

  test(text: string, lower: () => string): boolean {
    if (this.#regex) {
      if (this.#prefilter && !this.#prefilter.mayMatch(lower())) return false;
      return this.#regex.test(text);
    }
    const subject = this.#test.caseSensitive ? text : lower();
    return this.#test.equals !== undefined ? subject === this.#needle : subject.includes(this.#needle);
  }

  /** The substrings that matched; for `equals`, the whole text. */
  find(text: string, lower: () => string, limit: number): StringFindings {
    const samples: string[] = [];
    let total = 0;
    if (this.#regex) {
      const regex = this.#regex;
      const matcher = regex.matcher(text);
      for (let finds = 1; finds <= MAX_FINDS && total < MAX_COUNTED && matcher.find(); finds++) {
        const found = matcher.group() ?? '';
        if (found !== '') {
          total++;
          if (samples.length < limit) samples.push(clip(found, SAMPLE_CHARS));
        }
        // After the last match the NFA would scan the rest of the text for nothing: now and
        // then ask the DFA whether anything is left. The character before the resume point
        // stays in, so \b and (?m)^ there see what they would see in the whole text.
        if ((finds & (finds - 1)) === 0 && !regex.test(text.slice(Math.max(0, matcher.end() - 1)))) break;
      }
      return { samples, total };
    }
    if (this.#test.equals !== undefined) {
      return this.test(text, lower) ? { samples: limit > 0 ? [clip(text, SAMPLE_CHARS)] : [], total: 1 } : { samples, total };
    }
    const subject = this.#test.caseSensitive ? text : lower();
    // Lower-casing can change a text's length (İ → i̇); then the needle stands in for the original.
    const aligned = subject.length === text.length;
    for (
      let at = subject.indexOf(this.#needle);
      at !== -1 && total < MAX_COUNTED;
      at = subject.indexOf(this.#needle, at + this.#needle.length)
    ) {
      total++;
      if (samples.length < limit) samples.push(clip(aligned ? text.slice(at, at + this.#needle.length) : this.#needle, SAMPLE_CHARS));
    }
    return { samples, total };
  }
}
