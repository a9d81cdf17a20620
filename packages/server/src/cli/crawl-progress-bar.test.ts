import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlProgress } from '@loupe/contract';
import { crawlProgressBar } from './crawl-progress-bar.ts';
import { ProgressBar } from './progress-bar.ts';

const progress = (
  phase: CrawlProgress['phase'],
  pages: [number, number],
  links: [number, number],
  rates: [number | null, number | null] = [null, null],
): CrawlProgress => ({
  phase,
  pages: { done: pages[0], total: pages[1] },
  links: { done: links[0], total: links[1] },
  pagesPerSecond: rates[0],
  linksPerSecond: rates[1],
  phaseStartedAt: '2026-11-28T12:00:00.000Z',
  secondsLeft: null,
  errors: {},
  recent: [],
});

describe('the crawl progress bar', () => {
  it('says what the crawl is doing, with counts and the rate of the phase', () => {
    const text = (p: CrawlProgress) => crawlProgressBar(p, 500, 'https://example.test/a').text;
    assert.equal(text(progress('pages', [0, 0], [0, 0])), 'starting the crawl');
    assert.equal(text(progress('pages', [12, 40], [0, 0], [8.5, null])), 'crawling pages 12/40 (8.5/s)');
    assert.equal(text(progress('pages', [120, 400], [300, 2_000], [8.5, 40])), 'crawling pages 120/400 (8.5/s) · links 300/2,000');
    assert.equal(text(progress('links', [500, 500], [1_200, 3_644], [null, 85])), 'pages 500/500 · checking links 1,200/3,644 (85/s)');
    assert.equal(text(progress('links', [500, 500], [1_200, 3_644])), 'pages 500/500 · checking links 1,200/3,644');
    assert.equal(text(progress('report', [500, 500], [3_644, 3_644])), 'pages 500/500 · links 3,644/3,644 · building report');
    assert.equal(text(progress('done', [7, 7], [0, 0])), 'pages 7/7 · done');
  });

  it('fills with pages of maxPages, then with links checked, then whole', () => {
    const filled = (p: CrawlProgress) => {
      const state = crawlProgressBar(p, 500, '');
      return [state.current, state.total];
    };
    assert.deepEqual(filled(progress('pages', [100, 120], [0, 0])), [100, 500]);
    assert.deepEqual(filled(progress('links', [500, 500], [1_200, 3_644])), [1_200, 3_644]);
    assert.deepEqual(filled(progress('report', [500, 500], [3_644, 3_644])), [1, 1]);
  });

  it('writes a line for each phase to a pipe, so a CI log shows the link checks and the report', () => {
    const chunks: string[] = [];
    const stream = { isTTY: false, columns: 80, write: (chunk: string) => (chunks.push(chunk), true) } as unknown as NodeJS.WriteStream;
    const bar = new ProgressBar(stream, { unit: 'pages' });
    for (let page = 1; page <= 10; page++) bar.show(crawlProgressBar(progress('pages', [page, 10], [0, 0]), 10, ''));
    for (let link = 0; link <= 50; link++) bar.show(crawlProgressBar(progress('links', [10, 10], [link, 50]), 10, ''));
    bar.show(crawlProgressBar(progress('report', [10, 10], [50, 50]), 10, ''));
    const lines = chunks.join('').trimEnd().split('\n');
    assert.equal(lines.filter((line) => line.startsWith('crawling pages')).length, 10);
    assert.deepEqual(lines.filter((line) => line.includes('checking links')).slice(0, 2), [
      'pages 10/10 · checking links 0/50',
      'pages 10/10 · checking links 5/50',
    ]);
    assert.equal(lines.filter((line) => line.includes('checking links')).length, 11);
    assert.equal(lines.at(-1), 'pages 10/10 · links 50/50 · building report');
  });
});

describe('the crawl progress bar, for a crawl worth watching (issue #24, point 6)', () => {
  const watched = (phase: CrawlProgress['phase'], secondsLeft: number | null, errors: Record<string, number>): CrawlProgress => ({
    ...progress(phase, [120, 400], [300, 2_000], phase === 'pages' ? [8.5, 40] : [null, 40]),
    secondsLeft,
    errors,
  });
  const text = (p: CrawlProgress) => crawlProgressBar(p, 500, 'https://example.test/a').text;

  it('says how long the phase has left, and the errors so far by kind, most first', () => {
    assert.equal(
      text(watched('pages', 33, { dns: 1, '4xx': 12, timeout: 1 })),
      'crawling pages 120/400 (8.5/s) · links 300/2,000 · 33s left · 14 errors (4xx 12, dns 1, timeout 1)',
    );
    assert.equal(
      text(watched('links', 3_725, { '5xx': 1 })),
      'pages 120/400 · checking links 300/2,000 (40/s) · 1h 2m left · 1 error (5xx 1)',
    );
    assert.equal(text(watched('links', 125, {})), 'pages 120/400 · checking links 300/2,000 (40/s) · 2m 5s left');
    assert.equal(text(watched('done', null, { '4xx': 2 })), 'pages 120/400 · links 300/2,000 · done · 2 errors (4xx 2)');
  });
});
