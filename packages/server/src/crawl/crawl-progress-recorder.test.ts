import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { CrawlProgress } from './crawl-progress.ts';
import { CrawlProgressRecorder } from './crawl-progress-recorder.ts';
import type { CrawlStore } from './crawl-store.ts';
import type { StoredCrawlProgress } from './stored-crawl-progress.ts';

/** A store that keeps each progress write, and a clock the test moves. */
function recorder(previous: StoredCrawlProgress | null = null) {
  const writes: { progress: StoredCrawlProgress; lastUrl: string }[] = [];
  const store = {
    setProgress: async (_id: string, progress: StoredCrawlProgress, lastUrl: string) => void writes.push({ progress, lastUrl }),
  };
  const clock = { now: Date.parse('2026-11-28T12:00:00.000Z') };
  const subject = new CrawlProgressRecorder({
    store: store as unknown as CrawlStore,
    crawlId: 'c',
    log: pino({ level: 'silent' }),
    previous,
    clock: () => clock.now,
    autoTick: false,
  });
  return { subject, writes, clock, phases: () => writes.map((w) => w.progress.current.phase) };
}

const reported = (
  phase: CrawlProgress['phase'],
  pages: number,
  links: [number, number],
  lastUrl = `https://example.test/${pages}`,
): CrawlProgress => ({
  phase,
  pages: { done: pages, total: Math.max(pages, 10) },
  links: { done: links[0], total: links[1] },
  lastUrl,
});

describe('CrawlProgressRecorder', () => {
  it('writes a change of phase at once, and counts only when ticked, however often the crawler reports', async () => {
    const { subject, writes, clock, phases } = recorder();
    await subject.begin();
    for (let page = 1; page <= 1000; page++) subject.report(reported('pages', page, [0, 0]));
    await subject.flush();
    assert.deepEqual(phases(), ['pages'], 'a thousand reports, no write of their own');
    clock.now += 500;
    subject.tick();
    await subject.flush();
    subject.tick();
    await subject.flush();
    assert.equal(writes.length, 2, 'one write for what changed; nothing new, no write');
    assert.deepEqual([writes[1]!.progress.current.pages, writes[1]!.lastUrl], [{ done: 1000, total: 1000 }, 'https://example.test/1000']);
    subject.report(reported('links', 1000, [5, 40]));
    await subject.flush();
    assert.deepEqual(phases(), ['pages', 'pages', 'links']);
  });

  it('works out recent rates from its clock, shown while their count can move', async () => {
    const { subject, writes, clock } = recorder();
    await subject.begin();
    subject.report(reported('pages', 0, [0, 0]));
    clock.now += 2_000;
    subject.report(reported('pages', 30, [10, 50]));
    subject.tick();
    await subject.flush();
    assert.deepEqual([writes.at(-1)!.progress.current.pagesPerSecond, writes.at(-1)!.progress.current.linksPerSecond], [15, 5]);
    clock.now += 1_000;
    subject.report(reported('links', 30, [20, 50]));
    await subject.flush();
    assert.deepEqual([writes.at(-1)!.progress.current.pagesPerSecond, writes.at(-1)!.progress.current.linksPerSecond], [null, 6.7]);
    // Nothing checked for a minute: the rate falls to 0 rather than staying at its last value.
    clock.now += 60_000;
    subject.tick();
    await subject.flush();
    assert.equal(writes.at(-1)!.progress.current.linksPerSecond, 0);
    await subject.buildingReport();
    assert.deepEqual([writes.at(-1)!.progress.current.phase, writes.at(-1)!.progress.current.linksPerSecond], ['report', null]);
    // A late report of the crawler's does not take the phase back.
    subject.report(reported('links', 30, [50, 50]));
    subject.tick();
    await subject.flush();
    assert.deepEqual([writes.at(-1)!.progress.current.phase, writes.at(-1)!.progress.current.links.done], ['report', 20]);
  });

  it('dates each phase, remembers how each began, and answers the final progress without writing it', async () => {
    const { subject, writes, clock } = recorder();
    await subject.begin();
    clock.now += 1_000;
    subject.report(reported('links', 10, [1, 4]));
    clock.now += 1_000;
    await subject.buildingReport();
    clock.now += 1_000;
    const final = await subject.finish(10);
    assert.equal(writes.length, 3);
    assert.deepEqual([final.current.phase, final.step], ['done', 4]);
    assert.deepEqual(
      Object.entries(final.entered).map(([phase, entry]) => [phase, entry.step, entry.progress.phaseStartedAt]),
      [
        ['pages', 1, '2026-11-28T12:00:00.000Z'],
        ['links', 2, '2026-11-28T12:00:01.000Z'],
        ['report', 3, '2026-11-28T12:00:02.000Z'],
        ['done', 4, '2026-11-28T12:00:03.000Z'],
      ],
    );
    subject.tick();
    await subject.flush();
    assert.equal(writes.length, 3, 'nothing is written once finished');
  });

  it("keeps a resumed crawl's phase start when it resumes in the same phase", async () => {
    const first = recorder();
    await first.subject.begin();
    const previous = first.writes.at(-1)!.progress;
    const resumed = recorder(previous);
    resumed.clock.now += 30_000;
    await resumed.subject.begin();
    resumed.subject.report(reported('pages', 3, [0, 0]));
    resumed.subject.tick();
    await resumed.subject.flush();
    assert.deepEqual(
      [resumed.writes.at(-1)!.progress.step, resumed.writes.at(-1)!.progress.current.phaseStartedAt],
      [1, previous.current.phaseStartedAt],
    );
  });
});

describe('CrawlProgressRecorder, for the live page (issue #24, point 6)', () => {
  it('estimates the time left in a phase from its rate and what is left, unknown until there is a rate', async () => {
    const { subject, writes, clock } = recorder();
    await subject.begin();
    subject.report(reported('pages', 0, [0, 0]));
    subject.tick();
    await subject.flush();
    assert.equal(writes.at(-1)!.progress.current.secondsLeft, null);
    clock.now += 2_000;
    subject.report({ ...reported('pages', 20, [0, 0]), pages: { done: 20, total: 100 } });
    subject.tick();
    await subject.flush();
    assert.equal(writes.at(-1)!.progress.current.secondsLeft, 8, '80 pages left at 10 a second');
    clock.now += 1_000;
    subject.report(reported('links', 100, [10, 40]));
    await subject.flush();
    assert.equal(writes.at(-1)!.progress.current.secondsLeft, 10, '30 links left at 3.3 a second');
    await subject.buildingReport();
    assert.equal(writes.at(-1)!.progress.current.secondsLeft, null);
  });

  it('counts errors by kind and keeps the last ten requests, newest first, across a resume', async () => {
    const { subject, writes } = recorder();
    await subject.begin();
    const fetched = (path: string, status: number | null, error: string | null = null, kind: 'page' | 'link' = 'page') =>
      subject.fetched({ url: `https://example.test${path}`, kind, status, error });
    for (let n = 0; n < 12; n++) fetched(`/ok/${n}`, 200);
    fetched('/gone', 404);
    fetched('/broken', 500);
    fetched('https://nowhere.invalid/', null, 'dns', 'link');
    fetched('/private', null, 'blocked-by-robots');
    fetched('/hangs-up', null, 'network: other side closed');
    fetched('/also-gone', 410);
    subject.tick();
    await subject.flush();
    const current = writes.at(-1)!.progress.current;
    assert.deepEqual(current.errors, { '4xx': 2, '5xx': 1, dns: 1, 'blocked-by-robots': 1, network: 1 });
    assert.equal(current.recent.length, 10);
    assert.deepEqual(
      current.recent.slice(0, 3).map((r) => [r.url, r.kind, r.status, r.error]),
      [
        ['https://example.test/also-gone', 'page', 410, null],
        ['https://example.test/hangs-up', 'page', null, 'network'],
        ['https://example.test/private', 'page', null, 'blocked-by-robots'],
      ],
    );
    assert.equal(current.recent.at(-1)!.url, 'https://example.test/ok/8');

    const resumed = recorder(writes.at(-1)!.progress);
    await resumed.subject.begin();
    resumed.subject.fetched({ url: 'https://example.test/again', kind: 'page', status: 404, error: null });
    resumed.subject.tick();
    await resumed.subject.flush();
    const after = resumed.writes.at(-1)!.progress.current;
    assert.equal(after.errors['4xx'], 3);
    assert.deepEqual(
      [after.recent.length, after.recent[0]!.url, after.recent[1]!.url],
      [10, 'https://example.test/again', 'https://example.test/also-gone'],
    );
  });
});
