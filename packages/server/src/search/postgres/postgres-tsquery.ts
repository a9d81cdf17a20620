import type { SearchQuery, SearchTerm } from '@loupe/contract';
import { type RawBuilder, sql } from 'kysely';

type TsQuery = RawBuilder<unknown>;

/** As the tsvector column of migration 0014 is made. */
const CONFIG = sql`'english'::regconfig`;

/**
 * Each term goes through phraseto_tsquery as a bound value, so PostgreSQL's parser splits and
 * stems it as it did the pages (a word of a stop list, such as "the", matches everything and
 * is left out), and nothing typed is ever read as tsquery syntax.
 */
const termQuery = (term: SearchTerm): TsQuery => sql`phraseto_tsquery(${CONFIG}, ${term.text})`;
const anyOf = (terms: readonly SearchTerm[]): TsQuery =>
  terms.length === 1 ? termQuery(terms[0]) : sql`(${sql.join(terms.map(termQuery), sql` || `)})`;

/** What ranks: the wanted terms (an excluded word is in no hit). */
export const wantedQuery = (query: SearchQuery): TsQuery => sql`(${sql.join(query.required.map(anyOf), sql` && `)})`;

/** What a hit must match: every group, and none of the exclusions. */
export function matchQuery(query: SearchQuery): TsQuery {
  return query.excluded.length === 0 ? wantedQuery(query) : sql`(${wantedQuery(query)} && !!${anyOf(query.excluded)})`;
}
