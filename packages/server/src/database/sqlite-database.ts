import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { Kysely, sql } from 'kysely';
import type { Database } from './database.ts';
import { nodeSqliteDialect } from './node-sqlite-dialect.ts';
import type { Schema } from './schema.ts';
import { SqliteReaders } from './sqlite-readers.ts';

const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;

export function openSqliteDatabase(file: string): Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Kysely<Schema>({ dialect: nodeSqliteDialect(file) });
  const readers = new SqliteReaders(file, availableParallelism());
  return {
    kind: 'sqlite',
    db,
    read: (query) => readers.query(query),
    onReader: (procedure, input) => readers.run(procedure, input),
    isUniqueViolation(error) {
      const errcode = (error as { errcode?: number } | null)?.errcode;
      return errcode === SQLITE_CONSTRAINT_UNIQUE || errcode === SQLITE_CONSTRAINT_PRIMARYKEY;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await readers.close();
      await db.destroy();
    },
  };
}
