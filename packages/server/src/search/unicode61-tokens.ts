/**
 * A text's tokens as SQLite FTS5's unicode61 tokenizer (remove_diacritics 2) splits it: runs of
 * letters, digits, private-use characters and combining marks (the diacritics it then removes).
 * The word lists' keys (search-words.ts) and the snippets (text-snippet.ts) both read pages so,
 * which is what lets a list stand for FTS5's matches and a snippet mark what FTS5 matched.
 */

/** Where each token starts and ends, in arrays rather than an object a token: a page has a thousand. */
export interface Tokens {
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

/** ASCII letters and digits: 1. */
const ASCII_TOKEN_CHARACTERS = Uint8Array.from({ length: 128 }, (_, code) => (/[0-9A-Za-z]/.test(String.fromCharCode(code)) ? 1 : 0));
const NON_ASCII_TOKEN_CHARACTER = /[\p{L}\p{N}\p{Co}\p{M}]/u;

/** Whether the character at `at` belongs in a token; a low surrogate goes with its high one, whatever it is. */
function inToken(text: string, at: number, inside: boolean): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return ASCII_TOKEN_CHARACTERS[code] === 1;
  if (code >= 0xdc00 && code <= 0xdfff) return inside;
  return NON_ASCII_TOKEN_CHARACTER.test(String.fromCodePoint(text.codePointAt(at) ?? 0));
}

/**
 * A text's tokens, read only as far as a reader asks: a snippet usually has what it needs
 * within the first few hundred characters of a page's thousands.
 */
export class TokenReader implements Tokens {
  readonly text: string;
  starts: Int32Array;
  ends: Int32Array;
  count = 0;
  /** Where reading goes on from: the text's length once every token is read. */
  #at = 0;

  /** `capacity`: tokens to make room for at first (more are made room for as they come). */
  constructor(text: string, capacity: number) {
    this.text = text;
    this.starts = new Int32Array(Math.max(1, capacity));
    this.ends = new Int32Array(Math.max(1, capacity));
  }

  /** Whether every token of the text has been read. */
  get done(): boolean {
    return this.#at >= this.text.length;
  }

  /** Reads on until `wanted` tokens are read or the text ends; whether there are that many. */
  readUpTo(wanted: number): boolean {
    const { text } = this;
    const length = text.length;
    let at = this.#at;
    while (this.count < wanted && at < length) {
      while (at < length && !inToken(text, at, false)) at++;
      if (at === length) break;
      const start = at++;
      while (at < length && inToken(text, at, true)) at++;
      if (this.count === this.starts.length) this.#grow();
      this.starts[this.count] = start;
      this.ends[this.count++] = at;
    }
    this.#at = at;
    return this.count >= wanted;
  }

  #grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}

/** Every token of the text. */
export function tokensOf(text: string): Tokens {
  const tokens = new TokenReader(text, (text.length >> 1) + 1);
  tokens.readUpTo(Number.POSITIVE_INFINITY);
  return tokens;
}
