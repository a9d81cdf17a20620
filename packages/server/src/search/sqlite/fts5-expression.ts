import type { SearchQuery, SearchTerm } from '@loupe/contract';

/** FTS5 strings take any character; a double quote is written twice. */
const phrase = (term: SearchTerm) => `"${term.text.replaceAll('"', '""')}"`;

/**
 * The query in FTS5's syntax; every word is inside a string, so no text of the user's is read
 * as an operator or a column name. NOT binds tighter than AND in FTS5: `P NOT E`.
 */
export function fts5Expression(query: SearchQuery): string {
  const groups = query.required.map((group) => (group.length === 1 ? phrase(group[0]) : `(${group.map(phrase).join(' OR ')})`));
  const wanted = groups.join(' AND ');
  if (query.excluded.length === 0) return wanted;
  return `(${wanted}) NOT (${query.excluded.map(phrase).join(' OR ')})`;
}
