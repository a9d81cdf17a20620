import { Migrator } from 'kysely';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

/** Brings the schema up to date. Kysely's migrator locks, so concurrent starts apply each migration once. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    ...(database.migrationSchema ? { migrationTableSchema: database.migrationSchema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results = [] } = await migrator.migrateToLatest();
    if (!error) return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < 3 && results.length === 0 && isSchemaDroppedMeanwhile(error)) continue;
    throw error;
  }
}

/**
 * Kysely's migrator looks for its tables by listing those of every schema on PostgreSQL, which
 * fails when another schema is dropped while it lists (as parallel test files drop theirs): as
 * a missing schema, a missing table of it (seen once in CI), or a missing column of one, which
 * the listing asks pg_get_serial_sequence about after reading the catalogue (seen once in the
 * PostgreSQL suite: `column "require_signed_urls" of relation "image_projects" does not
 * exist`). Only that look is repeated, when no migration ran yet; a migration failing on a
 * missing table or column is not retried.
 */
function isSchemaDroppedMeanwhile(error: unknown): boolean {
  const PG_INVALID_SCHEMA_NAME = '3F000';
  const PG_UNDEFINED_TABLE = '42P01';
  const PG_UNDEFINED_COLUMN = '42703';
  const code = (error as { code?: string } | null)?.code;
  return code === PG_INVALID_SCHEMA_NAME || code === PG_UNDEFINED_TABLE || code === PG_UNDEFINED_COLUMN;
}
