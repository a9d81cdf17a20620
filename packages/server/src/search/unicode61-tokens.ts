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

function isNonAsciiTokenCharacter(text: string, at: number): boolean {
  return NON_ASCII_TOKEN_CHARACTER.test(String.fromCodePoint(text.codePointAt(at) ?? 0));
}

export function tokensOf(text: string): Tokens {
  const capacity = (text.length >> 1) + 1;
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  let count = 0;
  let start = -1;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    // A low surrogate goes with its high one, whatever it is.
    const inside =
      code < 128 ? ASCII_TOKEN_CHARACTERS[code] === 1 : code >= 0xdc00 && code <= 0xdfff ? start >= 0 : isNonAsciiTokenCharacter(text, at);
    if (inside && start < 0) start = at;
    else if (!inside && start >= 0) {
      starts[count] = start;
      ends[count++] = at;
      start = -1;
    }
  }
  if (start >= 0) {
    starts[count] = start;
    ends[count++] = text.length;
  }
  return { starts, ends, count };
}
