import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * One read-only connection to the SQLite file on a thread of its own (SqliteReaders): it runs
 * the queries posted to it, one at a time, and posts back their rows or their error.
 */
export interface ReadRequest {
  id: number;
  sql: string;
  parameters: SQLInputValue[];
}
export type ReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; errcode?: number } };

const port = parentPort;
if (port) {
  const database = new DatabaseSync((workerData as { file: string }).file, { timeout: 5000 });
  // Reads only: a query that would write fails here instead of racing the writer's connection.
  database.exec('PRAGMA query_only = ON;');
  const statements = new Map<string, StatementSync>();
  port.on('message', ({ id, sql, parameters }: ReadRequest) => {
    try {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      port.postMessage({ id, rows: statement.all(...parameters) } satisfies ReadAnswer);
    } catch (error) {
      const { message, errcode } = error as { message: string; errcode?: number };
      port.postMessage({ id, error: { message, errcode } } satisfies ReadAnswer);
    }
  });
}
