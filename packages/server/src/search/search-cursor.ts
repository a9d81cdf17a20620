import { LoupeError } from '@loupe/contract';

/**
 * Hits are ranked, not in id order, so a page is a window of the ranking: the cursor holds the
 * window's start and the build it ranks, and stops working once another build answers (the
 * same offset would skip or repeat hits of a different ranking).
 */
export interface SearchCursor {
  buildId: string;
  offset: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const invalidCursor = (message: string) =>
  new LoupeError('validation_failed', { details: { fieldErrors: { cursor: [message] }, formErrors: [] } });

export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(`${cursor.buildId}:${cursor.offset}`, 'utf8').toString('base64url');
}

export function decodeSearchCursor(cursor: string | undefined, maxOffset: number): SearchCursor | undefined {
  if (cursor === undefined) return undefined;
  const [buildId, offsetText, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const offset = Number(offsetText);
  if (rest.length > 0 || !UUID.test(buildId ?? '') || !/^[1-9][0-9]{0,6}$/.test(offsetText ?? '') || offset >= maxOffset) {
    throw invalidCursor('Not a cursor from a previous page.');
  }
  return { buildId, offset };
}
