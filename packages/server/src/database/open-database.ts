import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { openPostgresDatabase } from './postgres-database.ts';
import { openSqliteDatabase } from './sqlite-database.ts';

/** The one place that picks the engine: PostgreSQL when DATABASE_URL is set, else SQLite in the data dir. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Database {
  if (config.databaseUrl) return openPostgresDatabase({ url: config.databaseUrl, schema: config.databaseSchema });
  return openSqliteDatabase(join(config.dataDir, 'loupe.db'));
}
