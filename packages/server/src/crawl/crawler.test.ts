import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { brokenLinksSite, externalSite, generatedSite, redirectsSite, robotsSite } from '../testing/fixture-sites.ts';
import { htmlPage } from '../testing/html-page.ts';
import { insertRunningCrawl, testCrawler } from '../testing/running-crawl.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { type CrawlOptions, crawlOptions } from './crawl-options.ts';
import { CrawlStore } from './crawl-store.ts';

for (const dialect of testDialects()) {
  describe(`crawler (${dialect})`, () => {
    let t: TestServer;
    let store: CrawlStore;
    const fetcher = new GuardedFetcher({ allowPrivate: true });
    const crawler = () => testCrawler(t.server.database, fetcher);

    const newCrawl = (options: CrawlOptions) => insertRunningCrawl(store, t.owner.workspaceId, options);

    const rows = (crawlId: string) => t.server.database.db.selectFrom('crawl_urls').selectAll().where('crawl_id', '=', crawlId).execute();

    before(async () => {
      t = await startTestServer(dialect);
      store = new CrawlStore(t.server.database);
    });
    after(async () => {
      await fetcher.close();
      await t.close();
    });

    describe('a generated site of 300 pages', () => {
      let site: TestSite;
      before(async () => {
        site = await startTestSite(generatedSite(300));
      });
      after(() => site.close());

      it('fetches every page once, within maxPages, and records what it found', async () => {
        const options = crawlOptions({ url: site.url('/'), concurrency: 8 }, 400);
        const crawlId = await newCrawl(options);
        const pages = await crawler().run(crawlId, options, new AbortController().signal, () => {});
        const all = await rows(crawlId);
        const fetchedPages = all.filter((r) => r.kind === 'page' && r.state === 'done');
        assert.equal(pages, fetchedPages.length);
        assert.ok(pages >= 300, `crawled ${pages}`);
        assert.equal(site.requests.count('/pages/150'), 1);
        const home = all.find((r) => r.url === site.url('/'));
        assert.equal(home?.status_code, 200);
        assert.ok(JSON.parse(home?.summary ?? '{}').linkCount > 0);
        assert.ok(home?.title_hash);
      });

      it('stops at maxPages', async () => {
        const options = crawlOptions({ url: site.url('/'), concurrency: 4 }, 25);
        const crawlId = await newCrawl(options);
        const pages = await crawler().run(crawlId, options, new AbortController().signal, () => {});
        assert.equal(pages, 25);
        assert.equal((await rows(crawlId)).filter((r) => r.kind === 'page' && r.state === 'done').length, 25);
      });

      it('resumes after being stopped, refetching at most the pages that were in flight', async () => {
        const options = crawlOptions({ url: site.url('/'), concurrency: 4, sitemaps: false }, 120);
        const crawlId = await newCrawl(options);
        const stop = new AbortController();
        site.requests.clear();
        await crawler().run(crawlId, options, stop.signal, (progress) => {
          if (progress.pages.done >= 30) stop.abort();
        });
        const pages = await crawler().run(crawlId, options, new AbortController().signal, () => {});
        assert.equal(pages, 120);
        const done = (await rows(crawlId)).filter((r) => r.kind === 'page' && r.state === 'done');
        assert.equal(done.length, 120, 'each page recorded once');
        const paths = site.requests.paths().filter((p) => p !== '/robots.txt');
        assert.ok(paths.length - new Set(paths).size <= options.concurrency, 'only requests cut short by the stop are made again');
      });
    });

    describe('redirects', () => {
      let site: TestSite;
      let external: TestSite;
      before(async () => {
        external = await startTestSite(externalSite());
        site = await startTestSite(redirectsSite({ externalOrigin: external.origin }));
      });
      after(async () => {
        await site.close();
        await external.close();
      });

      it('records a redirect chain hop by hop and a loop as an error', async () => {
        const options = crawlOptions({ url: site.url('/chain/start'), mode: 'page' }, 1);
        const crawlId = await newCrawl(options);
        await crawler().run(crawlId, options, new AbortController().signal, () => {});
        const [start] = await rows(crawlId);
        assert.deepEqual(
          JSON.parse(start?.redirects ?? '[]').map((hop: { status: number }) => hop.status),
          [301, 302],
        );
        assert.equal(start?.final_url, site.url('/chain/end'));

        const loopOptions = crawlOptions({ url: site.url('/loop/a'), mode: 'page' }, 1);
        const loopId = await newCrawl(loopOptions);
        await crawler().run(loopId, loopOptions, new AbortController().signal, () => {});
        assert.equal((await rows(loopId))[0]?.fetch_error, 'loop');
      });
    });

    describe('links and images', () => {
      let site: TestSite;
      let external: TestSite;
      before(async () => {
        external = await startTestSite(externalSite());
        site = await startTestSite(brokenLinksSite({ externalOrigin: external.origin }));
      });
      after(async () => {
        await site.close();
        await external.close();
      });

      it('checks external links and images without crawling them or counting them as pages', async () => {
        const options = crawlOptions({ url: site.url('/') }, 50);
        const crawlId = await newCrawl(options);
        const pages = await crawler().run(crawlId, options, new AbortController().signal, () => {});
        const byUrl = new Map((await rows(crawlId)).map((r) => [r.url, r]));
        assert.equal(byUrl.get(`${external.origin}/exists`)?.status_code, 200);
        assert.equal(byUrl.get(`${external.origin}/missing`)?.status_code, 404);
        assert.equal(byUrl.get(site.url('/images/ok.png'))?.status_code, 200);
        assert.equal(byUrl.get(site.url('/images/missing.png'))?.status_code, 404);
        assert.equal(byUrl.get(site.url('/missing'))?.status_code, 404);
        assert.deepEqual(
          external.requests.forPath('/exists').map((r) => r.method),
          ['HEAD'],
          'HEAD was enough',
        );
        assert.equal(pages, [...byUrl.values()].filter((r) => r.kind === 'page' && r.state === 'done').length);
        // Its Retry-After asks for an hour: more than we wait, so the 429 is its answer at once.
        assert.equal(byUrl.get(site.url('/rate-limited'))?.status_code, 429);
        assert.equal(site.requests.count('/rate-limited'), 1);
      });
    });

    describe('429 backoff and compression', () => {
      let site: TestSite;
      before(async () => {
        site = await startTestSite({
          pages: {
            '/': htmlPage({ path: '/', title: 'Backoff test site: a busy page and a compressed one', links: ['/busy', '/big'] }),
            '/busy': { status: 429, retryAfter: 1, thenServe: htmlPage({ path: '/busy', title: 'A page that was busy a moment ago' }) },
            '/big': { body: htmlPage({ path: '/big', title: 'A long page served compressed', words: 3000 }), compress: true },
          },
        });
      });
      after(() => site.close());

      it('waits as Retry-After asks, then records the page it gets', async () => {
        const options = crawlOptions({ url: site.url('/'), concurrency: 2 }, 10);
        const crawlId = await newCrawl(options);
        await crawler().run(crawlId, options, new AbortController().signal, () => {});
        const busy = (await rows(crawlId)).find((r) => r.url === site.url('/busy'));
        assert.equal(busy?.status_code, 200);
        const [first, second] = site.requests.forPath('/busy');
        assert.ok(second && first, 'asked twice');
        assert.ok(second.time - first.time >= 1000, `asked again after ${second.time - first.time} ms`);
      });

      it('asks again once for a page whose connection was dropped before any answer, then takes the drop as its answer', async () => {
        const dropping = await startTestSite({
          pages: {
            '/': htmlPage({
              path: '/',
              title: 'Dropping test site: connections closed without an answer',
              links: ['/dropped-once', '/dropped-always'],
            }),
            '/dropped-once': {
              drop: true,
              thenServe: htmlPage({ path: '/dropped-once', title: 'A page whose first connection was dropped' }),
            },
            '/dropped-always': { drop: true, times: 1000, thenServe: 'never' },
          },
        });
        try {
          const options = crawlOptions({ url: dropping.url('/'), concurrency: 2 }, 10);
          const crawlId = await newCrawl(options);
          await crawler().run(crawlId, options, new AbortController().signal, () => {});
          const byUrl = new Map((await rows(crawlId)).map((r) => [r.url, r]));
          assert.deepEqual(
            [byUrl.get(dropping.url('/dropped-once'))?.status_code, byUrl.get(dropping.url('/dropped-once'))?.fetch_error],
            [200, null],
          );
          assert.equal(dropping.requests.count('/dropped-once'), 2);
          const always = byUrl.get(dropping.url('/dropped-always'));
          assert.equal(always?.status_code, null);
          assert.match(always?.fetch_error ?? '', /^network: /);
          assert.equal(dropping.requests.count('/dropped-always'), 2, 'asked once more, not more');
        } finally {
          await dropping.close();
        }
      });

      it('reads compressed pages, recording the bytes transferred and the decoded facts', async () => {
        const options = crawlOptions({ url: site.url('/'), concurrency: 2 }, 10);
        const crawlId = await newCrawl(options);
        await crawler().run(crawlId, options, new AbortController().signal, () => {});
        const big = (await rows(crawlId)).find((r) => r.url === site.url('/big'));
        assert.equal(JSON.parse(big?.headers ?? '{}')['content-encoding'], 'gzip');
        const summary = JSON.parse(big?.summary ?? '{}');
        assert.ok(summary.wordCount >= 3000, `${summary.wordCount} words`);
        assert.ok((big?.bytes ?? 0) < summary.htmlBytes / 2, `${big?.bytes} bytes for ${summary.htmlBytes} of HTML`);
        assert.equal(site.requests.forPath('/big')[0]?.headers['accept-encoding'], 'gzip, deflate, br, zstd');
      });
    });

    describe('robots.txt', () => {
      let site: TestSite;
      before(async () => {
        site = await startTestSite(robotsSite({ crawlDelay: 0 }));
      });
      after(() => site.close());

      it('never fetches a disallowed path, and records it as blocked', async () => {
        const options = crawlOptions({ url: site.url('/'), concurrency: 2 }, 100);
        const crawlId = await newCrawl(options);
        await crawler().run(crawlId, options, new AbortController().signal, () => {});
        assert.equal(site.requests.count('/private/secret'), 0);
        const blocked = (await rows(crawlId)).filter((r) => r.fetch_error === 'blocked-by-robots').map((r) => new URL(r.url).pathname);
        assert.ok(blocked.includes('/private/secret') || blocked.includes('/private/listed-in-sitemap'), JSON.stringify(blocked));
        assert.ok(
          (await rows(crawlId)).some((r) => r.url === site.url('/from-gzip-sitemap')),
          'found through the gzip sitemap',
        );
      });
    });
  });
}
