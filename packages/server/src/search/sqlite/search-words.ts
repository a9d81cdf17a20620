import { tokensOf } from '../snippets/unicode61-tokens.ts';

/**
 * Words as the word lists (sqlite-word-postings.ts) key them: lower case, without diacritics,
 * ASCII letters and digits only. FTS5's tokenizer (unicode61, remove_diacritics 2) reads such a
 * word as the same one token, so the list stored under it is what FTS5 matches for it; a word
 * this cannot vouch for (another script, a ligature) has no key and is searched by FTS5 alone.
 */
const KEY = /^[a-z0-9]+$/;
const MARKS = /\p{M}/gu;

/** A word as unicode61 with remove_diacritics folds it before stemming: diacritics gone, lower case. */
export function foldedWord(word: string): string {
  return word.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** The key of one word as typed, or undefined when it is not one word the lists can hold. */
export function wordKey(text: string): string | undefined {
  const key = foldedWord(text.trim());
  return KEY.test(key) ? key : undefined;
}

/** The distinct keys of a text's words (a word without a key is left out). */
export function wordKeysOf(text: string): Set<string> {
  const keys = new Set<string>();
  const { starts, ends, count } = tokensOf(text);
  for (let i = 0; i < count; i++) {
    const key = wordKey(text.slice(starts[i], ends[i]));
    if (key !== undefined) keys.add(key);
  }
  return keys;
}
