import type { Download } from '@loupe/contract';
import type { PageLinks } from './page-links.ts';
import { csvRow } from './report-export.ts';

const BATCH = 500;

const CSV_COLUMNS = [
  'source',
  'target',
  'anchor',
  'other_anchors',
  'occurrences',
  'kind',
  'element',
  'nofollow',
  'partly_nofollow',
  'sponsored',
  'ugc',
  'status',
  'final_url',
  'reason',
];

/** A report's broken links as a file, streamed in batches of the link list's order. */
export function exportBrokenLinks(links: PageLinks, crawlId: string, reportId: string, format: 'csv' | 'json'): Download {
  const name = `loupe-broken-links-${reportId}`;
  return format === 'csv'
    ? { contentType: 'text/csv', filename: `${name}.csv`, body: csvLines(links, crawlId) }
    : { contentType: 'application/json', filename: `${name}.json`, body: jsonChunks(links, crawlId) };
}

async function* brokenLinks(links: PageLinks, crawlId: string) {
  for (let cursor: string | undefined; ; ) {
    const batch = await links.all(crawlId, { statusClass: 'broken', limit: BATCH, cursor });
    yield* batch.items;
    if (!batch.nextCursor) return;
    cursor = batch.nextCursor;
  }
}

async function* csvLines(links: PageLinks, crawlId: string): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  const flag = (on: boolean) => (on ? 'yes' : '');
  for await (const link of brokenLinks(links, crawlId)) {
    yield csvRow([
      link.sourceUrl,
      link.targetUrl,
      link.anchor,
      link.anchors.slice(1).join(' | '),
      link.occurrences,
      link.kind,
      link.element,
      flag(link.nofollow),
      flag(link.partlyNofollow),
      flag(link.sponsored),
      flag(link.ugc),
      link.status,
      link.finalUrl,
      link.reason,
    ]);
  }
}

async function* jsonChunks(links: PageLinks, crawlId: string): AsyncGenerator<string> {
  yield '{"links":[';
  let first = true;
  for await (const link of brokenLinks(links, crawlId)) {
    yield `${first ? '' : ','}${JSON.stringify(link)}`;
    first = false;
  }
  yield ']}';
}
