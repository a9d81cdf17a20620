import assert from 'node:assert/strict';
import { parseSearchQuery, type SearchQuery } from '@loupe/contract';

/**
 * A query as the API parses it, for tests that call an engine, a snippet or the answer cache
 * directly; a module of its own, so unit tests take it without the test server the search
 * test kit brings.
 */
export function parsedQuery(text: string): SearchQuery {
  const parsed = parseSearchQuery(text);
  assert.ok(parsed.ok, text);
  return parsed.query;
}
