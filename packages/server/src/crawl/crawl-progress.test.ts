import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CrawlEvent } from '@loupe/contract';
import { pino } from 'pino';
import { generatedSite } from '../testing/fixture-sites.ts';
import { startHeldSite } from '../testing/held-site.ts';
import { htmlPage } from '../testing/html-page.ts';
import { testBuildReport } from '../testing/running-crawl.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import type { CrawlProgress } from './crawl-progress.ts';
import { CrawlRunner } from './crawl-runner.ts';

type ProgressEvent = Extract<CrawlEvent, { type: 'progress' }>;

/** A crawl's server-sent events, read as they come. */
async function* crawlEventStream(t: TestServer, crawlId: string): AsyncGenerator<CrawlEvent> {
  const response = await fetch(`${t.url}/api/v1/crawls/${crawlId}/events`, {
    headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
  });
  assert.equal(response.status, 200);
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body as ReadableStream<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const blocks = buffered.split('\n\n');
    buffered = blocks.pop() ?? '';
    for (const block of blocks) if (block.startsWith('data: ')) yield JSON.parse(block.slice('data: '.length)) as CrawlEvent;
  }
}

async function allEvents(stream: AsyncGenerator<CrawlEvent>): Promise<CrawlEvent[]> {
  const events: CrawlEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const progressOf = (events: CrawlEvent[]) => events.filter((event): event is ProgressEvent => event.type === 'progress');

/** Each phase once, in the order they came (a phase repeats only when its counts moved). */
const phasesOf = (events: CrawlEvent[]) =>
  progressOf(events)
    .map((event) => event.phase)
    .filter((phase, index, all) => phase !== all[index - 1]);

for (const dialect of testDialects()) {
  describe(`crawl progress (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite(generatedSite(60), { record: false });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it('shows a crawl going from pages to the report to done, in its object and its events, with growing counts', async () => {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 40, concurrency: 2 } });
      assert.equal(started.status, 202);
      if (started.body.status === 'queued') assert.equal(started.body.progress, null, 'a queued crawl has no progress yet');
      const events = await allEvents(crawlEventStream(t, started.body.id));
      const phases = phasesOf(events);
      assert.deepEqual(
        phases.filter((phase) => phase !== 'links'),
        ['pages', 'report', 'done'],
        `phases in order: ${phases.join(', ')}`,
      );
      const progress = progressOf(events);
      for (const [index, event] of progress.entries()) {
        const before = progress[index - 1];
        if (before) assert.ok(event.pages.done >= before.pages.done && event.links.done >= before.links.done, 'counts never go back');
        assert.ok(event.pages.done <= event.pages.total && event.pages.total <= 40);
      }
      // The last progress comes before the final status, and both say the crawl is over.
      assert.deepEqual([events.at(-2)?.type, events.at(-1)?.type], ['progress', 'status']);
      const last = progress.at(-1)!;
      assert.deepEqual(
        [last.phase, last.pages, last.pagesCrawled, last.pagesPerSecond, last.linksPerSecond],
        ['done', { done: 40, total: 40 }, 40, null, null],
      );

      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.equal(crawl.status, 'completed');
      assert.deepEqual([crawl.progress.phase, crawl.progress.pages, crawl.pagesCrawled], ['done', { done: 40, total: 40 }, 40]);
      assert.ok(crawl.progress.phaseStartedAt >= crawl.startedAt && crawl.progress.phaseStartedAt <= crawl.finishedAt);
    });

    it('estimates the time left in the pages phase once it has a rate', async () => {
      const body = { url: site.url('/'), maxPages: 20, concurrency: 1, delayMs: 150, sitemaps: false };
      const started = await t.request('POST', '/api/v1/crawls', { body });
      const progress = progressOf(await allEvents(crawlEventStream(t, started.body.id)));
      const estimated = progress.filter((event) => event.phase === 'pages' && event.secondsLeft !== null);
      assert.ok(estimated.length > 0, JSON.stringify(progress.map((event) => [event.phase, event.secondsLeft])));
      for (const event of estimated) {
        const left = event.pages.total - event.pages.done;
        assert.equal(event.secondsLeft, Math.ceil(left / event.pagesPerSecond!), 'what is left at the recent rate');
      }
    });

    it('says it is checking links, all pages done, while links to another host answer slowly', async () => {
      const held = await startHeldSite();
      const external = (n: number) =>
        Array.from({ length: 4 }, (_, k) => ({ href: held.url(`/ext/${n}/${k}`), text: `Elsewhere ${n}.${k}` }));
      const paths = ['/', '/a', '/b', '/c'];
      const slowSite = await startTestSite({
        pages: Object.fromEntries(
          paths.map((path, n) => [
            path,
            htmlPage({ path, title: `Page ${path} of the slow-links site`, links: [...paths, ...external(n)] }),
          ]),
        ),
        robotsTxt: 'User-agent: *\nDisallow:\n',
      });
      try {
        const started = await t.request('POST', '/api/v1/crawls', { body: { url: slowSite.url('/'), sitemaps: false } });
        const stream = crawlEventStream(t, started.body.id);
        let checking: ProgressEvent | undefined;
        for await (const event of stream) {
          if (event.type === 'progress' && event.phase === 'links') {
            checking = event;
            break;
          }
        }
        assert.ok(checking, 'the crawl said it was checking links');
        assert.deepEqual(checking.pages, { done: 4, total: 4 });
        assert.ok(checking.links.done < checking.links.total, JSON.stringify(checking.links));
        const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
        assert.deepEqual([crawl.status, crawl.progress.phase, crawl.progress.pages], ['running', 'links', { done: 4, total: 4 }]);
        assert.ok(crawl.progress.links.done < crawl.progress.links.total);

        held.release();
        const rest = await allEvents(crawlEventStream(t, started.body.id));
        const end = rest.at(-1);
        assert.ok(end?.type === 'status' && end.status === 'completed', JSON.stringify(end));
        const done = progressOf(rest).at(-1)!;
        assert.equal(done.phase, 'done');
        assert.equal(done.links.done, done.links.total, 'every link settled once they answered');
        assert.ok(done.links.total >= 16, JSON.stringify(done.links));
      } finally {
        held.release();
        await slowSite.close();
        await held.close();
      }
    });
  });

  describe(`crawl progress for the live page (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    before(async () => {
      // Every name but *.test is unknown: the link to nowhere.invalid fails as no such host.
      t = await startTestServer(dialect, { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
      const links = ['/', '/guide', '/moved-away', '/never-was', '/private/notes', 'http://nowhere.invalid/docs'];
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', title: 'The home page of the site with some broken links', links }),
          '/guide': htmlPage({ path: '/guide', title: 'The guide of the site with some broken links', links }),
        },
        robotsTxt: 'User-agent: *\nDisallow: /private/\n',
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it('sends the errors so far by kind and the last requests with their status or reason, and the time left', async () => {
      const started = await t.request('POST', '/api/v1/crawls', {
        body: { url: site.url('/'), sitemaps: false, concurrency: 1, delayMs: 300 },
      });
      assert.equal(started.status, 202);
      const events = await allEvents(crawlEventStream(t, started.body.id));
      const progress = progressOf(events);
      for (const event of progress) {
        assert.ok(event.recent.length <= 10);
        if (event.phase === 'report' || event.phase === 'done') assert.equal(event.secondsLeft, null);
        else assert.ok(event.secondsLeft === null || event.secondsLeft >= 0);
      }
      const last = progress.at(-1)!;
      assert.equal(last.phase, 'done');
      assert.deepEqual(last.errors, { '4xx': 2, 'blocked-by-robots': 1, dns: 1 });
      const recent = new Map(last.recent.map((fetch) => [new URL(fetch.url).pathname, fetch]));
      assert.deepEqual(
        ['/', '/moved-away', '/private/notes', '/docs'].map((path) => {
          const fetch = recent.get(path);
          return [path, fetch?.kind, fetch?.status, fetch?.error];
        }),
        [
          ['/', 'page', 200, null],
          ['/moved-away', 'page', 404, null],
          ['/private/notes', 'page', null, 'blocked-by-robots'],
          ['/docs', 'link', null, 'dns'],
        ],
      );
      assert.ok(last.recent.every((fetch) => fetch.at >= started.body.createdAt));
      assert.ok(
        progress.some((event) => event.phase === 'pages' && event.recent.length > 0),
        'the requests are sent while the crawl runs, not only at its end',
      );

      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.deepEqual([crawl.progress.errors, crawl.progress.recent, crawl.progress.secondsLeft], [last.errors, last.recent, null]);
    });
  });

  describe(`crawl runner progress (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      // No job runs here: the test runs the crawl with its own runner and a crawler it scripts.
      t = await startTestServer(dialect, { crawlAllowPrivate: true, serveJobs: false });
    });
    after(async () => t.close());

    it("stores the crawler's progress and the runner's own phases, and the events send each phase", async () => {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: 'http://127.0.0.1:9/', maxPages: 30 } });
      assert.deepEqual([started.body.status, started.body.progress], ['queued', null]);
      const seen = crawlEventStream(t, started.body.id);
      const first = await seen.next();
      assert.deepEqual(first.value, { type: 'status', status: 'queued', reportId: null });
      const following = allEvents(seen);
      const step = (phase: CrawlProgress['phase'], pages: number, links: number): CrawlProgress => ({
        phase,
        pages: { done: pages, total: 30 },
        links: { done: links, total: 90 },
        lastUrl: `http://127.0.0.1:9/${pages}`,
      });
      let inLinksPhase: { status: string; progress: { phase: string; pages: unknown; links: unknown } } | undefined;
      const crawler = {
        run: async (_id: string, _options: unknown, _signal: AbortSignal, onProgress: (progress: CrawlProgress) => void) => {
          for (let page = 1; page <= 30; page++) onProgress(step('pages', page, page * 2));
          onProgress(step('links', 30, 60));
          // A change of phase is written at once: the crawl's object says so before the crawler goes on.
          for (;;) {
            inLinksPhase = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
            if (inLinksPhase?.progress.phase === 'links') break;
          }
          onProgress(step('links', 30, 90));
          return 30;
        },
      };
      const runner = new CrawlRunner({
        database: t.server.database,
        plans: t.server.plans,
        crawler,
        log: pino({ level: 'silent' }),
        buildReport: testBuildReport(t.server.database),
      });
      assert.equal(await runner.run(started.body.id, new AbortController().signal), 'completed');
      assert.deepEqual(
        [inLinksPhase?.status, inLinksPhase?.progress.pages, inLinksPhase?.progress.links],
        ['running', { done: 30, total: 30 }, { done: 60, total: 90 }],
      );

      const events = await following;
      assert.deepEqual(phasesOf(events), ['pages', 'links', 'report', 'done']);
      const end = events.at(-1);
      assert.ok(end?.type === 'status' && end.status === 'completed', JSON.stringify(end));
      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.deepEqual(
        [crawl.progress.phase, crawl.progress.pages, crawl.progress.links, crawl.pagesCrawled],
        ['done', { done: 30, total: 30 }, { done: 90, total: 90 }, 30],
      );
    });
  });
}
