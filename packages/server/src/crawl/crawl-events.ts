import { type CrawlEvent, type CrawlProgress, type CrawlStatus, LoupeError } from '@loupe/contract';
import type { CrawlRow, CrawlStore } from './crawl-store.ts';
import { crawlProgressOf, parseStoredProgress, progressSince } from './stored-crawl-progress.ts';

/** How often a followed crawl's row is read: progress is written about twice a second. */
const POLL_MS = 500;

type ProgressEvent = Extract<CrawlEvent, { type: 'progress' }>;

/**
 * The events of one crawl, read from its row, so they reach the client whichever process
 * (server or `loupe worker`) runs the crawl: the current state first (and progress, once
 * started), then progress whenever any of it changes, then the final state, where the stream
 * ends. A phase entered and left between two reads is still sent, in order.
 */
export async function* crawlEvents(
  store: CrawlStore,
  workspaceId: string,
  crawlId: string,
  signal: AbortSignal,
): AsyncGenerator<CrawlEvent> {
  let row = await store.find(workspaceId, crawlId);
  if (!row) throw new LoupeError('not_found', { message: 'No such crawl.' });
  let status = row.status;
  let seenStep = parseStoredProgress(row.progress)?.step ?? 0;
  let sent = '';
  const changed = function* (current: CrawlRow) {
    for (const event of progressEvents(current, seenStep)) {
      const key = JSON.stringify(event);
      if (key === sent) continue;
      sent = key;
      yield event;
    }
    seenStep = parseStoredProgress(current.progress)?.step ?? seenStep;
  };
  yield { type: 'status', status: row.status as CrawlStatus, reportId: row.report_id };
  if (status === 'running') yield* changed(row);
  while (!signal.aborted && (status === 'queued' || status === 'running')) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    row = await store.byId(crawlId);
    if (!row) return;
    yield* changed(row);
    if (row.status !== status) {
      status = row.status;
      yield { type: 'status', status: row.status as CrawlStatus, reportId: row.report_id };
    }
  }
}

/** The progress events a reader who has seen phase changes up to `seenStep` is owed by this row. */
function progressEvents(row: CrawlRow, seenStep: number): ProgressEvent[] {
  const stored = parseStoredProgress(row.progress);
  const current = crawlProgressOf(row);
  if (!current) return [];
  const event = (progress: CrawlProgress, pagesCrawled: number): ProgressEvent => ({
    type: 'progress',
    pagesCrawled,
    maxPages: row.max_pages,
    lastUrl: row.last_url ?? '',
    ...progress,
  });
  if (!stored) return [event(current, row.pages_crawled)];
  const shown = progressSince(stored, seenStep);
  return shown.map((progress, index) => event(progress, index === shown.length - 1 ? row.pages_crawled : progress.pages.done));
}
