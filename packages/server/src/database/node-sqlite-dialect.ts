import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';
import { StatementCache } from './statement-cache.ts';

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface; this adapts `node:sqlite`'s
 * DatabaseSync to it, so the embedded default needs no native build (DESIGN.md §9).
 */
class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    // A statement that yields columns (SELECT, or anything with RETURNING) is read with all().
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...(parameters as SQLInputValue[]));
  }

  run(parameters: ReadonlyArray<unknown>) {
    const { changes, lastInsertRowid } = this.#statement.run(...(parameters as SQLInputValue[]));
    return { changes, lastInsertRowid };
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...(parameters as SQLInputValue[]));
  }
}

/** What a ROLLBACK with no transaction left to end runs instead (see NodeSqliteDatabase.prepare). */
const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: DatabaseSync;
  readonly #statements: StatementCache<NodeSqliteStatement>;

  constructor(database: DatabaseSync) {
    this.#database = database;
    this.#statements = new StatementCache((sql) => new NodeSqliteStatement(database.prepare(sql)));
  }

  prepare(sql: string): SqliteStatement {
    // SQLite rolls a transaction back itself on some failures (SQLITE_FULL: a full disk); Kysely's
    // ROLLBACK after one would fail with "no transaction is active" and hide the failure that matters.
    if (sql === 'rollback' && !this.#database.isTransaction) return NOTHING_TO_ROLL_BACK;
    return this.#statements.get(sql);
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }
}

export function nodeSqliteDialect(file: string): SqliteDialect {
  return new SqliteDialect({
    database: () => {
      const database = new DatabaseSync(file, { timeout: 5000 });
      database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
      return Promise.resolve(new NodeSqliteDatabase(database));
    },
  });
}
