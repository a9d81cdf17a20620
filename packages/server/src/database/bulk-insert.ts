import { CompiledQuery } from 'kysely';
import type { Database } from './database.ts';
import type { Schema } from './schema.ts';

/** Values bound per statement at most: under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_VALUES = 30_000;

/** Statements by table, columns, row count and engine: a crawl writes the same few shapes again and again. */
const statements = new Map<string, string>();

/**
 * Inserts rows given as arrays, in `columns` order, a statement per chunk, with the SQL written
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
  const perStatement = Math.max(1, Math.floor(MAX_VALUES / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await database.db.executeQuery(CompiledQuery.raw(statement(database.kind, table, columns, chunk.length, skipConflictsOn), chunk.flat()));
  }
}

function statement(kind: Database['kind'], table: string, columns: readonly string[], count: number, skipConflictsOn?: readonly string[]): string {
  const key = `${kind} ${table} ${columns.join(',')} ${count} ${skipConflictsOn?.join(',') ?? ''}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    let n = 0;
    const placeholder = kind === 'postgres' ? () => `$${++n}` : () => '?';
    const tuple = () => `(${columns.map(placeholder).join(', ')})`;
    const conflict = skipConflictsOn ? ` on conflict (${skipConflictsOn.map(quoted).join(', ')}) do nothing` : '';
    sql = `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${Array.from({ length: count }, tuple).join(', ')}${conflict}`;
    // Kept only for the shapes that recur: a crawl's batches are mostly small.
    if (count <= 64) statements.set(key, sql);
  }
  return sql;
}

function quoted(name: string): string {
  return `"${name}"`;
}
