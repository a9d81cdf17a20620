import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlProgress } from '@loupe/contract';
import { crawlProgressOf, parseStoredProgress, progressSince, type StoredCrawlProgress } from './stored-crawl-progress.ts';

const progress = (phase: CrawlProgress['phase'], pages: number): CrawlProgress => ({
  phase,
  pages: { done: pages, total: 10 },
  links: { done: 0, total: 0 },
  pagesPerSecond: null,
  linksPerSecond: null,
  phaseStartedAt: '2026-11-28T12:00:00.000Z',
  secondsLeft: null,
  errors: {},
  recent: [],
});

describe('stored crawl progress', () => {
  const stored: StoredCrawlProgress = {
    current: progress('done', 10),
    step: 4,
    entered: {
      pages: { step: 1, progress: progress('pages', 0) },
      links: { step: 2, progress: progress('links', 10) },
      report: { step: 3, progress: progress('report', 10) },
      done: { step: 4, progress: progress('done', 10) },
    },
  };

  it('gives a reader the phases it missed between two reads, in order, then the current progress', () => {
    assert.deepEqual(
      progressSince(stored, 1).map((p) => p.phase),
      ['links', 'report', 'done'],
    );
    assert.deepEqual(
      progressSince(stored, 3).map((p) => p.phase),
      ['done'],
    );
    assert.deepEqual(
      progressSince(stored, 4).map((p) => p.phase),
      ['done'],
    );
  });

  it('is null for a queued crawl, and made from the page count for a crawl with none stored', () => {
    const row = { status: 'queued', progress: null, pages_crawled: 0, created_at: 'c', started_at: null, finished_at: null };
    assert.equal(crawlProgressOf(row), null);
    const running = crawlProgressOf({ ...row, status: 'running', pages_crawled: 7, started_at: 's' });
    assert.deepEqual([running?.phase, running?.pages, running?.phaseStartedAt], ['pages', { done: 7, total: 7 }, 's']);
    const canceled = crawlProgressOf({ ...row, status: 'canceled', finished_at: 'f' });
    assert.deepEqual([canceled?.phase, canceled?.phaseStartedAt], ['done', 'f']);
  });

  it('reads progress stored before time left, errors and recent requests as having none yet', () => {
    const { secondsLeft: _s, errors: _e, recent: _r, ...older } = progress('pages', 3);
    const parsed = parseStoredProgress(JSON.stringify({ current: older, step: 1, entered: { pages: { step: 1, progress: older } } }));
    for (const shown of [parsed?.current, parsed?.entered.pages?.progress]) {
      assert.deepEqual([shown?.pages.done, shown?.secondsLeft, shown?.errors, shown?.recent], [3, null, {}, []]);
    }
  });
});
