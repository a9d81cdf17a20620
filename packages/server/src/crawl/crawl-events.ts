import { LoupeError, type CrawlEvent, type CrawlStatus } from '@loupe/contract';
import type { CrawlStore } from './crawl-store.ts';

/** How often a followed crawl's row is read: progress is written about twice a second. */
const POLL_MS = 500;

/**
 * The events of one crawl, read from its row, so they reach the client whichever process
 * (server or `loupe worker`) runs the crawl: the current state first, then progress as the
 * page count moves, then the final state, where the stream ends.
 */
export async function* crawlEvents(store: CrawlStore, workspaceId: string, crawlId: string, signal: AbortSignal): AsyncGenerator<CrawlEvent> {
  let row = await store.find(workspaceId, crawlId);
  if (!row) throw new LoupeError('not_found', { message: 'No such crawl.' });
  let status = row.status;
  let pages = row.pages_crawled;
  yield { type: 'status', status: row.status as CrawlStatus, reportId: row.report_id };
  while (!signal.aborted && (status === 'queued' || status === 'running')) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    row = await store.byId(crawlId);
    if (!row) return;
    if (row.pages_crawled !== pages) {
      pages = row.pages_crawled;
      yield { type: 'progress', pagesCrawled: pages, maxPages: row.max_pages, lastUrl: row.last_url ?? '' };
    }
    if (row.status !== status) {
      status = row.status;
      yield { type: 'status', status: row.status as CrawlStatus, reportId: row.report_id };
    }
  }
}
