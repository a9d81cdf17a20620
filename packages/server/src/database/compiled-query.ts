import { createQueryId, type CompiledQuery } from 'kysely';

/**
 * A query whose SQL never changes, only its values: built and compiled on first use, then run
 * with the parameters given, in the order the builder placed them. Hot paths (a warm CDN hit, an
 * authenticated API read) use these: Kysely's building and compiling cost more than the
 * lookups themselves (bench/cdn.ts and bench/presets.ts, profiled: about a tenth of the
 * server's CPU per request).
 */
export function compiledOnce<Row>(compile: () => CompiledQuery<Row>): (...parameters: unknown[]) => CompiledQuery<Row> {
  let compiled: CompiledQuery<Row> | undefined;
  return (...parameters) => {
    compiled ??= compile();
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`expected ${compiled.parameters.length} query parameters, got ${parameters.length}`);
    }
    return { ...compiled, parameters, queryId: createQueryId() };
  };
}

