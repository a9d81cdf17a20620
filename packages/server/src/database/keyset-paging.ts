import { LoupeError, type Page } from '@loupe/contract';
import { sql } from 'kysely';

const notACursor = () =>
  new LoupeError('validation_failed', {
    details: { fieldErrors: { cursor: ['Not a cursor from a previous page.'] }, formErrors: [] },
  });

/**
 * Keyset paging over time-ordered ids: a page is `id > cursor ORDER BY id LIMIT limit + 1`;
 * the extra row only tells whether a next page exists. The cursor is opaque to clients.
 */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw notACursor();
  return id;
}

export function pageFromRows<Row extends { id: string }, Item>(rows: Row[], limit: number, toItem: (row: Row) => Item): Page<Item> {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    items: pageRows.map(toItem),
    nextCursor: more && last ? Buffer.from(last.id, 'utf8').toString('base64url') : null,
  };
}

/**
 * Keyset paging over several columns (a row's position, e.g. source, kind, target): the cursor
 * is the last row's position, and the next page is the rows after it in the columns' order.
 */
export function decodePositionCursor(cursor: string | undefined, parts: number): string[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(position) && position.length === parts && position.every((part) => typeof part === 'string')) {
      return position as string[];
    }
  } catch {
    // fall through to the validation error
  }
  throw notACursor();
}

/** Rows past a page's last one in the columns' order: a row-value comparison both dialects index. */
export function rowsAfter(columns: string[], position: string[]) {
  const refs = sql.join(columns.map((column) => sql.ref(column)));
  return sql<boolean>`(${refs}) > (${sql.join(position)})`;
}

export function pageFromPositions<Row, Item>(
  rows: Row[],
  limit: number,
  position: (row: Row) => string[],
  toItem: (row: Row) => Item,
): Page<Item> {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    items: pageRows.map(toItem),
    nextCursor: more && last ? Buffer.from(JSON.stringify(position(last)), 'utf8').toString('base64url') : null,
  };
}
