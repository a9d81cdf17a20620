import { LoupeError, type Page } from '@loupe/contract';

/**
 * Keyset paging over time-ordered ids: a page is `id > cursor ORDER BY id LIMIT limit + 1`;
 * the extra row only tells whether a next page exists. The cursor is opaque to clients.
 */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
    throw new LoupeError('validation_failed', {
      details: { fieldErrors: { cursor: ['Not a cursor from a previous page.'] }, formErrors: [] },
    });
  }
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
