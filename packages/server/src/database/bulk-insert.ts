import { CompiledQuery } from 'kysely';
import type { Database } from './database.ts';
import type { Schema } from './schema.ts';

/** Rows of one statement at most; fewer go in power-of-two chunks (see chunkSizes). */
const MAX_ROWS = 256;

/** Statements by table, columns, row count and engine: a handful of shapes, written again and again. */
const statements = new Map<string, string>();

/**
 * 256 rows a statement, and the rest in powers of two (100 = 64 + 32 + 4): every insert is
 * made of at most nine statement shapes a table, which the connection prepares once and
 * keeps. One statement of exactly as many rows as were given would be a new shape, prepared
 * again, nearly every time (a page's links number anything), and a prepared statement of
 * thousands of values holds megabytes until the cache lets it go.
 */
function chunkSizes(rows: number): number[] {
  const sizes: number[] = [];
  let left = rows;
  for (; left >= MAX_ROWS; left -= MAX_ROWS) sizes.push(MAX_ROWS);
  for (let size = MAX_ROWS / 2; size >= 1; size /= 2) if (left & size) sizes.push(size);
  return sizes;
}

/**
 * Inserts rows given as arrays, in `columns` order, a statement per chunk (chunkSizes), with the SQL written
 * here instead of by Kysely's builder: for thousands of values (a page's links) the builder
 * makes nodes per value and compiles them each time, which cost a crawl more than SQLite's
 * own work. `skipConflictsOn` names a unique key whose duplicates are left as they are. Runs on
 * whatever `database` is, a transaction included.
 */
export async function insertRows<Table extends keyof Schema & string>(
  database: Database,
  table: Table,
  columns: readonly (keyof Schema[Table] & string)[],
  rows: readonly unknown[][],
  skipConflictsOn?: readonly (keyof Schema[Table] & string)[],
): Promise<void> {
  let start = 0;
  for (const size of chunkSizes(rows.length)) {
    const chunk = rows.slice(start, start + size);
    start += size;
    await database.db.executeQuery(CompiledQuery.raw(statement(database.kind, table, columns, size, skipConflictsOn), chunk.flat()));
  }
}

function statement(
  kind: Database['kind'],
  table: string,
  columns: readonly string[],
  count: number,
  skipConflictsOn?: readonly string[],
): string {
  const key = `${kind} ${table} ${columns.join(',')} ${count} ${skipConflictsOn?.join(',') ?? ''}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    let n = 0;
    const placeholder = kind === 'postgres' ? () => `$${++n}` : () => '?';
    const tuple = () => `(${columns.map(placeholder).join(', ')})`;
    const conflict = skipConflictsOn ? ` on conflict (${skipConflictsOn.map(quoted).join(', ')}) do nothing` : '';
    sql = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${Array.from({ length: count }, tuple).join(', ')}${conflict}`;
    statements.set(key, sql);
  }
  return sql;
}

function quoted(name: string): string {
  return `"${name}"`;
}
