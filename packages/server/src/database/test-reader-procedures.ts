import type { DatabaseSync } from 'node:sqlite';
import { readerProcedure } from './reader-procedure.ts';

/** Reader procedures for sqlite-readers.test.ts. */
export const NOTES_LONGER_THAN = readerProcedure<{ length: number }, { texts: string[]; bytes: Uint8Array }>(
  import.meta.url,
  'notesLongerThan',
);
export const FAILING = readerProcedure<null, never>(import.meta.url, 'failing');
export const MISSING = readerProcedure<null, never>(import.meta.url, 'noSuchProcedure');

/** Two statements and code between them, with a result of more than rows. */
export function notesLongerThan(database: DatabaseSync, input: { length: number }) {
  const { n } = database.prepare('SELECT count(*) AS n FROM notes').get() as { n: number };
  const rows = database.prepare('SELECT text FROM notes WHERE length(text) > ? ORDER BY id').all(input.length) as { text: string }[];
  return { texts: rows.map((row) => row.text), bytes: Uint8Array.of(n) };
}

export function failing(database: DatabaseSync): never {
  database.prepare('SELECT 1').get();
  throw new Error('the procedure failed');
}
