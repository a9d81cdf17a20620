import type { SearchQuery, SearchTerm } from '@loupe/contract';
import { sql, type RawBuilder } from 'kysely';
import { MARK_END, MARK_START } from './snippet-html.ts';

type TsQuery = RawBuilder<unknown>;

/** As the tsvector column of migration 0014 is made. */
export const CONFIG = sql`'english'::regconfig`;

/**
 * Each term goes through phraseto_tsquery as a bound value, so PostgreSQL's parser splits and
 * stems it as it did the pages (a word of a stop list, such as "the", matches everything and
 * is left out), and nothing typed is ever read as tsquery syntax.
 */
const termQuery = (term: SearchTerm): TsQuery => sql`phraseto_tsquery(${CONFIG}, ${term.text})`;
const anyOf = (terms: readonly SearchTerm[]): TsQuery =>
  terms.length === 1 ? termQuery(terms[0]) : sql`(${sql.join(terms.map(termQuery), sql` || `)})`;

/** What ranks and highlights: the wanted terms (an excluded word is in no hit). */
export const wantedQuery = (query: SearchQuery): TsQuery => sql`(${sql.join(query.required.map(anyOf), sql` && `)})`;

/** What a hit must match: every group, and none of the exclusions. */
export function matchQuery(query: SearchQuery): TsQuery {
  return query.excluded.length === 0 ? wantedQuery(query) : sql`(${wantedQuery(query)} && !!${anyOf(query.excluded)})`;
}

/**
 * What a snippet marks: any wanted term, each on its own, as SQLite's snippets mark them
 * (text-snippet.ts). Given the query's AND instead, ts_headline marks nothing in a stretch
 * that does not hold every group, so a page whose words stand far apart got no mark near its
 * first match and took the whole text's headline (≈ 0.8 ms a page, half the hits of
 * two-word queries at 10,000 pages).
 */
export const highlightQuery = (query: SearchQuery): TsQuery => anyOf(query.required.flat());

/** One fragment of about 30 words around the best match; a literal, so a prepared statement's text holds it. */
const HEADLINE_OPTIONS = sql.lit(`StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=15, MaxFragments=1`);

/**
 * ts_headline parses the whole text it is given (≈ 0.7 ms for a page of 700 words, most of a
 * query's time), so it gets the words around the first match instead. The tsvector knows that
 * match's position: its text's words are counted from the title's last position (`||` shifts
 * the body's positions so), and the index of that word in the text split at spaces is at most
 * the position and rarely much less (the parser counts a hyphenated word and its parts, three
 * positions for one word). So first the 30 words each side of the position, where the match is
 * in a text without such words; when they mark nothing, the words from 0.8 times the position
 * to it, 30 more each side; and when those miss it too (a page of many hyphenated words), the
 * whole text. A match in the title alone shows the text's start. Trying the close stretch
 * first: 600 queries of one and two words at 50,000 pages, one at a time, 2.20 → 1.67–2.05 ms
 * a query, and the same snippets for each.
 */
export function snippetParts(highlight: TsQuery, at: RawBuilder<unknown>) {
  const headline = (text: RawBuilder<unknown>) => sql<string>`ts_headline(${CONFIG}, ${text}, ${highlight}, ${HEADLINE_OPTIONS})`;
  // The text's words from … to, split at spaces (migration 0021).
  const words = (from: RawBuilder<unknown>, to: RawBuilder<unknown>) => sql`search_text_words(d.body, d.word_marks, ${from}, ${to})`;
  /** Whether a snippet marks anything. */
  const marks = (snippet: RawBuilder<unknown>) => sql<boolean>`strpos(${snippet}, ${sql.lit(MARK_START)}) > 0`;
  const close = headline(words(sql`greatest(1, ${at} - 30)`, sql`${at} + 30`));
  const wide = headline(words(sql`greatest(1, floor(${at} * 0.8)::int - 30)`, sql`${at} + 30`));
  return {
    // The close stretch's headline made once: OFFSET 0 keeps the planner from copying it into both uses.
    near: sql<string>`(SELECT CASE WHEN ${marks(sql`nearby.snippet`)} THEN nearby.snippet ELSE ${wide} END FROM (SELECT ${close} AS snippet OFFSET 0) nearby)`,
    start: headline(words(sql`1`, sql`60`)),
    whole: headline(sql`d.body`),
    /** Whether the snippet near the match, `near`, marks anything (else the whole text's is shown). */
    marks,
  };
}
