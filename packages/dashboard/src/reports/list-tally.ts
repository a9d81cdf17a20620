/**
 * How many items a list read page by page holds, as far as the pages read say: the API gives
 * no total, so a list with pages after this one says where this page stands and that more
 * follow, and only the last page (or a lone one) gives the count.
 *
 * @example
 * listTally({ index: 1, pageSize: 50, shown: 7, hasNext: false }, 'link', 'links') // "57 links (51–57 shown)"
 */
export function listTally(
  position: { index: number; pageSize: number; shown: number; hasNext: boolean },
  one: string,
  many: string,
): string {
  const { index, pageSize, shown, hasNext } = position;
  const last = index * pageSize + shown;
  const shownRange = `${(index * pageSize + 1).toLocaleString('en')}–${last.toLocaleString('en')}`;
  if (hasNext) return `${many.charAt(0).toUpperCase()}${many.slice(1)} ${shownRange} shown, more follow`;
  const total = `${last.toLocaleString('en')} ${last === 1 ? one : many}`;
  return index === 0 ? total : `${total} (${shownRange} shown)`;
}
