import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReaderProcedureFunction } from './reader-procedure.ts';
import { statementsOf } from './statement-cache.ts';

/**
 * One read-only connection to the SQLite file on a thread of its own (SqliteReaders): it runs
 * the queries and reader procedures posted to it, one at a time, and posts back their rows or
 * result, or their error.
 */
export type ReadRequest =
  | { id: number; sql: string; parameters: SQLInputValue[] }
  | { id: number; module: string; name: string; input: unknown };
export type ReadAnswer =
  | { id: number; rows: unknown[] }
  | { id: number; result: unknown }
  | { id: number; error: { message: string; errcode?: number } };

const port = parentPort;
if (port) {
  const database = new DatabaseSync((workerData as { file: string }).file, { timeout: 5000 });
  // Reads only: a query that would write fails here instead of racing the writer's connection.
  database.exec('PRAGMA query_only = ON;');
  const statements = statementsOf(database);
  const modules = new Map<string, Promise<Record<string, unknown>>>();

  const answer = async (request: ReadRequest): Promise<ReadAnswer> => {
    if ('sql' in request) {
      return { id: request.id, rows: statements.get(request.sql).all(...request.parameters) };
    }
    let loading = modules.get(request.module);
    if (!loading) {
      loading = import(request.module) as Promise<Record<string, unknown>>;
      modules.set(request.module, loading);
    }
    const procedure = (await loading)[request.name] as ReaderProcedureFunction<unknown, unknown> | undefined;
    if (typeof procedure !== 'function') throw new Error(`${request.module} has no reader procedure ${request.name}`);
    return { id: request.id, result: procedure(database, request.input) };
  };

  port.on('message', (request: ReadRequest) => {
    answer(request).then(
      (reply) => port.postMessage(reply),
      (error: unknown) => {
        const { message, errcode } = error as { message: string; errcode?: number };
        port.postMessage({ id: request.id, error: { message, errcode } } satisfies ReadAnswer);
      },
    );
  });
}
