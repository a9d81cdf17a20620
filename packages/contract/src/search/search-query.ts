import { z } from 'zod';

/** A word or a quoted phrase of a search, as typed (each engine tokenizes it as it tokenized the pages). */
export interface SearchTerm {
  text: string;
  /** Written in double quotes: its words must appear together, in this order. */
  quoted: boolean;
}

/**
 * A search as parsed (never handed to an engine as text): every group must match, a group
 * matching when any of its terms does; no hit matches an excluded term.
 */
export interface SearchQuery {
  required: SearchTerm[][];
  excluded: SearchTerm[];
}

export const MAX_SEARCH_LENGTH = 256;
export const MAX_SEARCH_TERMS = 32;

type Token = { kind: 'term'; term: SearchTerm; excluded: boolean } | { kind: 'or' };

/** Something an engine can find: a term without a letter or digit tokenizes to nothing. */
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * Reads the search syntax: `words` (all of them), `"an exact phrase"`, `-word` and `-"phrase"`
 * (none of them), `a OR b` (either). OR binds the terms on each side of it, as web search
 * engines read it (`guide postgres OR sqlite` is guide and either database); an OR with no
 * term on one side is ignored, and so is an unclosed quote's missing end.
 */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    if (/\s/u.test(text[at])) {
      at++;
      continue;
    }
    const excluded = text[at] === '-' && at + 1 < text.length && !/\s/u.test(text[at + 1]);
    if (excluded) at++;
    if (text[at] === '"') {
      const end = text.indexOf('"', at + 1);
      const phrase = text.slice(at + 1, end === -1 ? text.length : end);
      tokens.push({ kind: 'term', term: { text: phrase.trim().replace(/\s+/gu, ' '), quoted: true }, excluded });
      at = end === -1 ? text.length : end + 1;
      continue;
    }
    let end = at;
    while (end < text.length && !/\s/u.test(text[end]) && text[end] !== '"') end++;
    const word = text.slice(at, end);
    at = end;
    if (word === 'OR' && !excluded) tokens.push({ kind: 'or' });
    else tokens.push({ kind: 'term', term: { text: word, quoted: false }, excluded });
  }
  return tokens.filter((token) => token.kind === 'or' || HAS_WORD.test(token.term.text));
}

export type ParsedSearch = { ok: true; query: SearchQuery } | { ok: false; message: string };

export function parseSearchQuery(text: string): ParsedSearch {
  const tokens = tokenize(text);
  const query: SearchQuery = { required: [], excluded: [] };
  let terms = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === 'or') continue;
    terms++;
    if (token.excluded) {
      query.excluded.push(token.term);
      continue;
    }
    const before = tokens[i - 1];
    const joinsPrevious = before?.kind === 'or' && tokens[i - 2]?.kind === 'term' && !(tokens[i - 2] as { excluded: boolean }).excluded;
    const group = query.required.at(-1);
    if (joinsPrevious && group) group.push(token.term);
    else query.required.push([token.term]);
  }
  if (terms > MAX_SEARCH_TERMS) return { ok: false, message: `At most ${MAX_SEARCH_TERMS} words and phrases, not ${terms}.` };
  if (query.required.length === 0) {
    const message =
      query.excluded.length > 0
        ? 'Add a word or phrase to look for: exclusions alone match nothing.'
        : 'Search for at least one word or phrase.';
    return { ok: false, message };
  }
  return { ok: true, query };
}

/** The `q` parameter: checked and parsed at the edge, so the service gets a query and never raw text. */
export const SearchText = z
  .string()
  .max(MAX_SEARCH_LENGTH)
  .transform((text, context): SearchQuery => {
    const parsed = parseSearchQuery(text);
    if (parsed.ok) return parsed.query;
    context.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  })
  .describe(
    'What to look for: words (all must appear), "an exact phrase", -word or -"phrase" to leave out pages with it, OR between two terms for either. Up to 256 characters and 32 terms.',
  );
