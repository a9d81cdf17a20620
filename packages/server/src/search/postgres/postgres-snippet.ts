import type { LexemePhrase } from '../postings/positional-ranking.ts';
import { type PhraseStems, type WantedPhrases, wantedPhrasesFromStems } from '../snippets/text-snippet.ts';
import { lexemeOf } from './postgres-english.ts';

/**
 * PostgreSQL's hits get their snippets here, from the page's text, as SQLite's do
 * (snippets/text-snippet.ts), rather than from ts_headline, which parses and stems the text
 * inside the database, a large share of its time a query (bench/README.md, search). The terms
 * are marked by the lexemes PostgreSQL read them as (phraseto_tsquery, postgres-query-terms.ts),
 * and a token of the text by the lexeme PostgreSQL's english configuration makes of it
 * (postgres-english.ts); a stop word has no lexeme, and so no term is one.
 */

/** A character no token of snippets/text-snippet.ts holds. */
const NOT_TOKEN = /[^\p{L}\p{N}\p{M}\p{Co}]/u;

/** What a snippet of a PostgreSQL hit marks: the wanted terms of each group, as PostgreSQL read them. */
export function wantedLexemes(groups: LexemePhrase[][]): WantedPhrases {
  const literals = new Set<string>();
  const terms = groups.map((group) => group.map((phrase) => asTokens(phrase, literals)));
  return wantedPhrasesFromStems(terms, lexemeOf, [...literals]);
}

/**
 * A term's lexemes as the snippet's tokens stand. PostgreSQL reads a hyphenated word as the
 * whole ('well-kept') and then its parts, each a position ('well', 'kept'); the tokens are the
 * parts alone, so the whole is left out and the positions after it close up. A lexeme of more
 * than one token (a host name, a number with a point) is found as text (`literals`).
 */
function asTokens(phrase: LexemePhrase, literals: Set<string>): PhraseStems {
  const stems: string[] = [];
  const offsets: number[] = [];
  let closed = 0;
  phrase.lexemes.forEach((lexeme, i) => {
    if (lexeme.includes('-') && phrase.offsets[i + 1] === phrase.offsets[i] + 1) {
      closed++;
      return;
    }
    if (NOT_TOKEN.test(lexeme)) literals.add(lexeme);
    stems.push(lexeme);
    offsets.push(phrase.offsets[i] - closed);
  });
  return { stems, offsets };
}
