import type { SearchQuery } from '@loupe/contract';
import { stemmer } from 'stemmer';
import { cachedStemmer, type WantedPhrases, wantedPhrasesFromStems } from '../snippets/text-snippet.ts';
import { tokensOf } from '../snippets/unicode61-tokens.ts';
import { foldedWord } from './search-words.ts';

/**
 * SQLite's hits are marked as FTS5 matched them: the tokens of unicode61 (letters, digits and
 * private-use characters; diacritics removed) under the Porter stemmer, which `stemmer`
 * implements as SQLite does (it stemmed the 18,512 words of the PostgreSQL manual alike).
 */

/** The stem FTS5 indexes a word under. */
export const stemOf = cachedStemmer((word) => stemmer(foldedWord(word)));

/** What a snippet marks: the wanted terms of the query (an excluded one is in no hit), as FTS5 matches them. */
export function wantedPhrases(query: SearchQuery): WantedPhrases {
  const terms = query.required.map((group) =>
    group.map((term) => {
      const tokens = tokensOf(term.text);
      const stems = Array.from({ length: tokens.count }, (_, i) => stemOf(term.text.slice(tokens.starts[i], tokens.ends[i])));
      return { stems, offsets: stems.map((_, i) => i) };
    }),
  );
  return wantedPhrasesFromStems(terms, stemOf);
}
