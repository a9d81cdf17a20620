import type { DatabaseSync } from 'node:sqlite';
import type { Database } from './database.ts';

/**
 * A function a SQLite reader thread runs with its own read-only connection: a read that needs
 * code between its statements (search ranking over stored lists) runs there whole, beside the
 * event loop and in one trip, rather than a statement at a time with the code in between on
 * the event loop. Named by its module's URL and its export, as a thread imports it; its input
 * and result cross threads by structured clone.
 */
export interface ReaderProcedure<Input, Output> {
  module: string;
  name: string;
  /** Types only: what the procedure takes and answers. */
  readonly types?: (input: Input) => Output;
}

/** The function behind a ReaderProcedure, as its module exports it. */
export type ReaderProcedureFunction<Input, Output> = (database: DatabaseSync, input: Input) => Output;

/** Names `name` of the module at `moduleUrl` (its `import.meta.url`) as a procedure. */
export function readerProcedure<Input, Output>(moduleUrl: string, name: string): ReaderProcedure<Input, Output> {
  return { module: moduleUrl, name };
}

/** Runs a procedure on one of the database's reader threads; only SQLite has them. */
export function onReader<Input, Output>(database: Database, procedure: ReaderProcedure<Input, Output>, input: Input): Promise<Output> {
  if (!database.onReader) throw new Error(`${procedure.name} runs on SQLite's reader threads; this ${database.kind} database has none`);
  return database.onReader(procedure, input);
}
