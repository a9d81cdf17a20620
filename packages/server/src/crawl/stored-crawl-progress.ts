import type { CrawlProgress, CrawlStatus } from '@loupe/contract';

export type CrawlPhase = CrawlProgress['phase'];

/**
 * The `crawls.progress` column: the current progress and, for each phase, the progress as the
 * crawl entered it. `step` counts phase changes, so an event stream that polls the row can
 * still send a phase that began and ended between two of its reads (a quick report build).
 */
export interface StoredCrawlProgress {
  current: CrawlProgress;
  step: number;
  entered: Partial<Record<CrawlPhase, { step: number; progress: CrawlProgress }>>;
}

type ProgressFields = {
  status: string;
  progress: string | null;
  pages_crawled: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
};

const ENDED: readonly string[] = ['completed', 'failed', 'canceled'] satisfies CrawlStatus[];

/** Progress stored before time left, errors and recent requests were (issue #24) has none of them. */
const NOTHING_YET = { secondsLeft: null, errors: {}, recent: [] } satisfies Partial<CrawlProgress>;

export function parseStoredProgress(column: string | null): StoredCrawlProgress | null {
  if (!column) return null;
  const stored = JSON.parse(column) as StoredCrawlProgress;
  const entered = Object.entries(stored.entered).map(([phase, entry]) => [
    phase,
    { ...entry, progress: { ...NOTHING_YET, ...entry.progress } },
  ]);
  return { ...stored, current: { ...NOTHING_YET, ...stored.current }, entered: Object.fromEntries(entered) };
}

/**
 * A crawl's progress for the API: null while queued; a crawl that has none stored (started
 * before progress was, or canceled while queued) gets one from its page count.
 */
export function crawlProgressOf(row: ProgressFields): CrawlProgress | null {
  if (row.status === 'queued') return null;
  const stored = parseStoredProgress(row.progress);
  if (stored) return stored.current;
  const ended = ENDED.includes(row.status);
  return {
    phase: ended ? 'done' : 'pages',
    pages: { done: row.pages_crawled, total: row.pages_crawled },
    links: { done: 0, total: 0 },
    pagesPerSecond: null,
    linksPerSecond: null,
    phaseStartedAt: (ended ? row.finished_at : row.started_at) ?? row.created_at,
    ...NOTHING_YET,
  };
}

/** The progress of each phase entered after step `seen` and before the current one, in order, then the current. */
export function progressSince(stored: StoredCrawlProgress, seen: number): CrawlProgress[] {
  const missed = Object.values(stored.entered)
    .filter((entry) => entry.step > seen && entry.step < stored.step)
    .sort((a, b) => a.step - b.step)
    .map((entry) => entry.progress);
  return [...missed, stored.current];
}
