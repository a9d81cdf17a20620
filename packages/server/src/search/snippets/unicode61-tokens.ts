/**
 * A text's tokens as SQLite FTS5's unicode61 tokenizer (remove_diacritics 2) splits it: runs of
 * letters, digits, private-use characters and combining marks (the diacritics it then removes).
 * The word lists' keys (sqlite/search-words.ts) and the snippets (text-snippet.ts) both read pages so,
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

/** Whether the character at `at` is in a token; a low surrogate is when the one before it is (its high one, whatever it is). */
export function isTokenCharacter(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return ASCII_TOKEN_CHARACTERS[code] === 1;
  if (code >= 0xdc00 && code <= 0xdfff) return at > 0 && isTokenCharacter(text, at - 1);
  return NON_ASCII_TOKEN_CHARACTER.test(String.fromCodePoint(text.codePointAt(at) ?? 0));
}

/** Where the first token at or after `at` starts; the text's length when none does. */
export function nextTokenStart(text: string, at: number): number {
  while (at < text.length && !isTokenCharacter(text, at)) at++;
  return at;
}

/** Where the token holding `at` (or starting there) ends. */
export function tokenEnd(text: string, at: number): number {
  while (at < text.length && isTokenCharacter(text, at)) at++;
  return at;
}

/** Where the token holding `at` starts. */
export function tokenStart(text: string, at: number): number {
  while (at > 0 && isTokenCharacter(text, at - 1)) at--;
  return at;
}

/** Where the last token ending at or before `at` ends; 0 when none does. */
export function previousTokenEnd(text: string, at: number): number {
  while (at > 0 && !isTokenCharacter(text, at - 1)) at--;
  return at;
}

/** Every token of the text. */
export function tokensOf(text: string): Tokens {
  const capacity = (text.length >> 1) + 1;
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  let count = 0;
  for (let at = nextTokenStart(text, 0); at < text.length; at = nextTokenStart(text, ends[count - 1])) {
    starts[count] = at;
    ends[count++] = tokenEnd(text, at);
  }
  return { starts, ends, count };
}
