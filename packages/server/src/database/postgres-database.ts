import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import type { Schema } from './schema.ts';

const PG_UNIQUE_VIOLATION = '23505';
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Counts and sums come back from PostgreSQL as int8/numeric strings; every value we store
 * fits in a double, so they are read as numbers, on this pool only (not pg's global parsers).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  url: string;
  /** A schema to work in instead of `public` (tests use one per server). */
  schema?: string;
  poolSize?: number;
}

export function openPostgresDatabase(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    types,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    migrationSchema: options.schema ?? 'public',
    read: async (query) => (await db.executeQuery(query)).rows,
    isUniqueViolation: (error) => (error as { code?: string } | null)?.code === PG_UNIQUE_VIOLATION,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
