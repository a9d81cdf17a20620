import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** How many statements a connection keeps; the oldest goes first. */
const STATEMENTS_KEPT = 256;

/**
 * Prepared statements of one SQLite connection, reused: preparing costs more than running the
 * short queries we make. Bounded, so that a text met once (an IN list of its own length) does
 * not stay for the connection's life.
 */
export class StatementCache<Statement> {
  readonly #prepare: (sql: string) => Statement;
  readonly #statements = new Map<string, Statement>();

  constructor(prepare: (sql: string) => Statement) {
    this.#prepare = prepare;
  }

  get(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#prepare(sql);
      if (this.#statements.size >= STATEMENTS_KEPT) this.#statements.delete(this.#statements.keys().next().value as string);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  clear(): void {
    this.#statements.clear();
  }
}

const cachesByConnection = new WeakMap<DatabaseSync, StatementCache<StatementSync>>();

/** A connection's statements, for code that holds only the connection (a reader thread and its procedures). */
export function statementsOf(database: DatabaseSync): StatementCache<StatementSync> {
  let cache = cachesByConnection.get(database);
  if (!cache) cachesByConnection.set(database, (cache = new StatementCache((sql) => database.prepare(sql))));
  return cache;
}
