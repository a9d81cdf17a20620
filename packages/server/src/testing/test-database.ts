import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../database/database.ts';
import { migrateToLatest } from '../database/migrate.ts';
import { openPostgresDatabase } from '../database/postgres-database.ts';
import { openSqliteDatabase } from '../database/sqlite-database.ts';
import { jobQueueSchema } from '../jobs/open-job-queue.ts';
import type { Dialect } from './test-dialects.ts';

/** A fresh, migrated database for data-layer tests that need no HTTP server. */
export interface TestDatabase {
  dialect: Dialect;
  database: Database;
  /** Where it is, for a child process to open it. */
  location: { sqliteFile: string } | { url: string; schema: string };
  /** Another connection to the same database, as a second process would open it; closed with this unless closed before. */
  connect(): Database;
  close(): Promise<void>;
}

/** A PostgreSQL schema of its own (dropped with everything in it), so parallel test files never meet. */
export async function createTestSchema(url: string, prefix = 'test'): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create schema ${schema}`);
  return { schema, drop: () => run(`drop schema if exists ${schema} cascade`) };
}

/**
 * A schema for a whole server (`databaseSchema`), dropped afterwards together with the job
 * queue's (pg-boss) schema that the server creates beside it.
 */
export async function createServerSchema(url: string, prefix = 'test'): Promise<{ schema: string; drop(): Promise<void> }> {
  const loupe = await createTestSchema(url, prefix);
  return {
    schema: loupe.schema,
    async drop() {
      await loupe.drop();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${jobQueueSchema({ databaseUrl: url, databaseSchema: loupe.schema })} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

export async function openTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const opened: Database[] = [];
  let location: TestDatabase['location'];
  let connect: () => Database;
  let cleanUp: () => Promise<void>;
  if (dialect === 'postgres') {
    const url = testDatabaseUrl();
    const { schema, drop } = await createTestSchema(url);
    location = { url, schema };
    connect = () => openPostgresDatabase({ url, schema, poolSize: 4 });
    cleanUp = drop;
  } else {
    const directory = await mkdtemp(join(tmpdir(), 'loupe-db-'));
    const sqliteFile = join(directory, 'loupe.db');
    location = { sqliteFile };
    connect = () => openSqliteDatabase(sqliteFile);
    cleanUp = () => rm(directory, { recursive: true, force: true });
  }
  const tracked = (): Database => {
    const database = connect();
    let closing: Promise<void> | undefined;
    const once = { ...database, close: () => (closing ??= database.close()) };
    opened.push(once);
    return once;
  };
  const database = tracked();
  await migrateToLatest(database);
  return {
    dialect,
    database,
    location,
    connect: tracked,
    async close() {
      await Promise.all(opened.map((each) => each.close()));
      await cleanUp();
    },
  };
}
