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
    if (attempt < 3 && isSchemaDroppedMeanwhile(error)) continue;
    throw error;
  }
}

/**
 * Kysely's migrator looks for its tables by listing those of every schema on PostgreSQL, which
 * fails when another schema is dropped while it lists (as parallel test files drop theirs): the
 * look is only repeated, since nothing was changed yet.
 */
function isSchemaDroppedMeanwhile(error: unknown): boolean {
  const PG_INVALID_SCHEMA_NAME = '3F000';
  return (error as { code?: string } | null)?.code === PG_INVALID_SCHEMA_NAME;
}
