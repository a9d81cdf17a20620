import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';

/** Brings the schema up to date. Kysely's migrator locks, so concurrent starts apply each migration once. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error;
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
