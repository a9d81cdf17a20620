import { type CompiledQuery, createQueryId } from 'kysely';

/**
 * Opens the SQL of every query compiledOnce makes: PostgreSQL's pool runs such a query as a
 * named prepared statement (postgres-database.ts), parsed once per connection and, after a few
 * runs, planned once. A comment, so SQLite and PostgreSQL read the same statement, and a log
 * shows which statements are prepared.
 */
export const FIXED_QUERY_MARK = '/* fixed */ ';

/**
 * A query whose SQL never changes, only its values: built and compiled on first use, then run
 * with the parameters given, in the order the builder placed them. Hot paths (a warm CDN hit, an
 * authenticated API read) use these: Kysely's building and compiling cost more than the
 * lookups themselves (bench/cdn.ts and bench/presets.ts, profiled: about a tenth of the
 * server's CPU per request), and on PostgreSQL parsing and planning cost ten times running
 * such a lookup (0.5 against 0.05 ms, read off the server's log of statement durations).
 */
export function compiledOnce<Row>(compile: () => CompiledQuery<Row>): (...parameters: unknown[]) => CompiledQuery<Row> {
  let compiled: CompiledQuery<Row> | undefined;
  return (...parameters) => {
    if (!compiled) {
      const fresh = compile();
      compiled = { ...fresh, sql: FIXED_QUERY_MARK + fresh.sql };
    }
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`expected ${compiled.parameters.length} query parameters, got ${parameters.length}`);
    }
    return { ...compiled, parameters, queryId: createQueryId() };
  };
}
