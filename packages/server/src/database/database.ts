import type { CompiledQuery, Kysely } from 'kysely';
import type { ReaderProcedure } from './reader-procedure.ts';
import type { Schema } from './schema.ts';

/**
 * The storage engine behind one interface (STYLE.md: adapters for what varies by
 * deployment). Core code sees a Kysely instance and these few dialect facts, never a
 * branch on the engine.
 */
export interface Database {
  readonly kind: 'sqlite' | 'postgres';
  readonly db: Kysely<Schema>;
  /**
   * Where Kysely keeps its migration tables. Named on PostgreSQL: left unset, Kysely takes a
   * migration table of any schema in the database for its own, then cannot find it.
   */
  readonly migrationSchema?: string;
  /**
   * Runs a read-only query where it holds up nothing else: on SQLite on reader threads (a
   * query there otherwise runs on the event loop), on PostgreSQL on the pool. It reads what is
   * committed, never inside a transaction, even when called on one's Database.
   */
  read<Row>(query: CompiledQuery<Row>): Promise<Row[]>;
  /**
   * SQLite only: runs a reader procedure (reader-procedure.ts) on a reader thread. For code that
   * is SQLite's alone (its search engine); absent on PostgreSQL.
   */
  readonly onReader?: <Input, Output>(procedure: ReaderProcedure<Input, Output>, input: Input) => Promise<Output>;
  /** True when `error` is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Answers once the database takes queries (for /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs `work` in one transaction; stores built on the `Database` it gets take part in it.
 * Called on a `Database` that is already a transaction, `work` joins that one (Kysely has no
 * nested transactions), so a store can be atomic alone and still compose into a larger unit.
 */
export function inTransaction<T>(database: Database, work: (transaction: Database) => Promise<T>): Promise<T> {
  if (database.db.isTransaction) return work(database);
  return database.db.transaction().execute((trx) => work({ ...database, db: trx }));
}
