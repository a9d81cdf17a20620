import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { htmlPage } from '../testing/html-page.ts';
import { insertRunningCrawl, TEST_CRAWL_LIMITS, testCrawler } from '../testing/running-crawl.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver, type TestResolver } from '../testing/test-resolver.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { type PageSpec, startTestSite, type TestSite } from '../testing/test-site.ts';
import { type CrawlOptions, crawlOptions } from './crawl-options.ts';
import type { CrawlProgress } from './crawl-progress.ts';
import { CrawlStore } from './crawl-store.ts';
import { NOT_CHECKED } from './link-outcome.ts';

/** A TCP server that accepts connections and never says a word; counts them. */
async function silentServer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** `count` pages under /p/N, each linking the next and to `links(n)`. */
function pagesLinking(count: number, links: (n: number) => string[], images: (n: number) => string[] = () => []): Record<string, PageSpec> {
  const pages: Record<string, PageSpec> = {};
  for (let n = 0; n < count; n++) {
    const path = n === 0 ? '/' : `/p/${n}`;
    pages[path] = htmlPage({
      path,
      title: `Page ${n} of a site that links to other sites`,
      links: [...(n + 1 < count ? [`/p/${n + 1}`] : []), ...links(n)],
      images: images(n).map((src) => ({ src })),
      words: 60,
    });
  }
  return pages;
}

for (const dialect of testDialects()) {
  describe(`link checks beside the crawl (${dialect})`, () => {
    let t: TestServer;
    let store: CrawlStore;
    let dns: TestResolver;
    let fetcher: GuardedFetcher;
    const sites: { close(): Promise<void> }[] = [];

    const crawler = (linkChecks = { cap: 10_000, budgetMs: 30_000 }, timeoutMs = 5_000) =>
      testCrawler(t.server.database, fetcher, { limits: { ...TEST_CRAWL_LIMITS, timeoutMs }, linkChecks });

    async function crawl(options: CrawlOptions, make = crawler()): Promise<{ crawlId: string; progress: CrawlProgress[] }> {
      const crawlId = await insertRunningCrawl(store, t.owner.workspaceId, options);
      const progress: CrawlProgress[] = [];
      await make.run(crawlId, options, new AbortController().signal, (p) => progress.push(p));
      return { crawlId, progress };
    }

    const linkRows = (crawlId: string) =>
      t.server.database.db
        .selectFrom('crawl_urls')
        .selectAll()
        .where('crawl_id', '=', crawlId)
        .where('kind', 'in', ['external', 'asset'])
        .execute();

    const site = async (...args: Parameters<typeof startTestSite>): Promise<TestSite> => {
      const started = await startTestSite(...args);
      sites.push(started);
      return started;
    };

    before(async () => {
      t = await startTestServer(dialect);
      store = new CrawlStore(t.server.database);
      dns = loopbackResolver();
      fetcher = new GuardedFetcher({ allowPrivate: true, lookup: dns.resolve });
    });
    after(async () => {
      await Promise.all(sites.map((s) => s.close()));
      await fetcher.close();
      await t.close();
    });

    it('settles thousands of links to hosts that do not resolve, one lookup per host', async () => {
      const hosts = Array.from({ length: 10 }, (_, h) => `gone-${h}.invalid`);
      const main = await site({
        pages: pagesLinking(20, (n) => Array.from({ length: 150 }, (_, l) => `http://${hosts[l % 10]}/p${n}/l${l}`)),
      });
      const { crawlId, progress } = await crawl(crawlOptions({ url: main.url('/'), concurrency: 4, sitemaps: false }, 100));
      const rows = await linkRows(crawlId);
      assert.equal(rows.length, 3000);
      for (const row of rows) {
        assert.equal(row.state, 'done');
        assert.equal(row.status_code, null);
        assert.match(row.fetch_error ?? '', /dns|ENOTFOUND/, row.url);
      }
      for (const host of hosts) assert.equal(dns.lookups.get(host), 1, `${host} was looked up ${dns.lookups.get(host)} times`);
      const last = progress.at(-1)!;
      assert.deepEqual([last.phase, last.links.done, last.links.total, last.pages.done], ['links', 3000, 3000, 20]);
    });

    it('settles every link of a host that refuses connections with its answer', async () => {
      const port = await closedPort();
      const main = await site({
        pages: pagesLinking(3, (n) => Array.from({ length: 40 }, (_, l) => `http://refusing.test:${port}/p${n}/l${l}`)),
      });
      const { crawlId } = await crawl(crawlOptions({ url: main.url('/'), sitemaps: false }, 10));
      const rows = await linkRows(crawlId);
      assert.equal(rows.length, 120);
      for (const row of rows) assert.match(row.fetch_error ?? '', /refused|ECONNREFUSED/, row.url);
    });

    it('asks another host at most two at once, while the pages are still being crawled', async () => {
      const slow: Record<string, PageSpec> = {};
      for (let l = 0; l < 30; l++) slow[`/l${l}`] = { body: 'ok', contentType: 'text/plain', delayMs: 40 };
      const other = await site({ pages: slow });
      const pages = pagesLinking(40, (n) =>
        n === 0 ? Object.keys(slow).map((path) => `http://other.test:${new URL(other.origin).port}${path}`) : [],
      );
      for (const path of Object.keys(pages)) if (path !== '/') pages[path] = { body: pages[path] as string, delayMs: 30 };
      const main = await site({ pages });
      const { crawlId } = await crawl(crawlOptions({ url: main.url('/'), concurrency: 1, sitemaps: false }, 100));
      assert.ok(other.requests.peakInFlight <= 2, `peak ${other.requests.peakInFlight} at once`);
      assert.equal(other.requests.peakInFlight, 2, 'two at once: the pool does not check one by one');
      const lastPage = main.requests.forPath('/p/39')[0]!.time;
      assert.ok(other.requests.entries[0]!.time < lastPage, 'the first check is made before the last page is fetched');
      assert.ok((await linkRows(crawlId)).every((row) => row.status_code === 200));
    });

    it('takes a host that never answers as silent after three timeouts', async () => {
      const silent = await silentServer();
      sites.push(silent);
      const main = await site({
        pages: pagesLinking(2, () => Array.from({ length: 20 }, (_, l) => `http://silent.test:${silent.port}/l${l}`)),
      });
      const { crawlId } = await crawl(crawlOptions({ url: main.url('/'), sitemaps: false }, 10), crawler(undefined, 300));
      const rows = await linkRows(crawlId);
      assert.equal(rows.length, 20);
      for (const row of rows) assert.match(row.fetch_error ?? '', /timeout/i, row.url);
      assert.ok(silent.connections() <= 5, `${silent.connections()} connections for 20 links`);
    });

    it('records links left after the time budget as not checked, and ends', async () => {
      const slow: Record<string, PageSpec> = {};
      for (let l = 0; l < 10; l++) slow[`/l${l}`] = { hang: 'before-headers' };
      const other = await site({ pages: slow });
      const main = await site({
        pages: pagesLinking(2, () => Object.keys(slow).map((path) => `http://hanging.test:${new URL(other.origin).port}${path}`)),
      });
      const { crawlId } = await crawl(
        crawlOptions({ url: main.url('/'), sitemaps: false }, 10),
        crawler({ cap: 10_000, budgetMs: 200 }, 60_000),
      );
      const rows = await linkRows(crawlId);
      assert.equal(rows.length, 10);
      for (const row of rows) assert.deepEqual([row.state, row.fetch_error], ['done', NOT_CHECKED.timeBudget], row.url);
    });

    it('ends at the time budget though handshakes to another host are still waiting', { timeout: 8_000 }, async () => {
      // A TLS handshake that never comes outlasts an abort in undici until its connect timeout (10 s).
      const silent = await silentServer();
      sites.push(silent);
      const links = Array.from({ length: 6 }, (_, l) => `https://handshake.test:${silent.port}/l${l}`);
      const main = await site({ pages: pagesLinking(1, () => links) });
      const { crawlId } = await crawl(
        crawlOptions({ url: main.url('/'), sitemaps: false }, 10),
        crawler({ cap: 10_000, budgetMs: 200 }, 60_000),
      );
      const rows = await linkRows(crawlId);
      assert.deepEqual(
        rows.map((row) => row.fetch_error),
        links.map(() => NOT_CHECKED.timeBudget),
      );
    });

    it('checks no more than the cap and records the rest as over it', async () => {
      const fast: Record<string, PageSpec> = {};
      for (let l = 0; l < 20; l++) fast[`/l${l}`] = { body: 'ok', contentType: 'text/plain' };
      const other = await site({ pages: fast });
      const main = await site({
        pages: pagesLinking(1, () => Object.keys(fast).map((path) => `http://capped.test:${new URL(other.origin).port}${path}`)),
      });
      const { crawlId } = await crawl(crawlOptions({ url: main.url('/'), sitemaps: false }, 10), crawler({ cap: 5, budgetMs: 30_000 }));
      const rows = await linkRows(crawlId);
      assert.equal(rows.filter((row) => row.status_code === 200).length, 5);
      assert.equal(rows.filter((row) => row.fetch_error === NOT_CHECKED.overCap).length, 15);
      assert.equal(other.requests.total, 5);
    });

    it('asks no other site with checkExternalLinks off, and still checks images', async () => {
      const other = await site({ pages: { '/elsewhere': 'ok', '/picture.png': { body: 'png', contentType: 'image/png' } } });
      const port = new URL(other.origin).port;
      const main = await site({
        pages: pagesLinking(
          2,
          () => [`http://off.test:${port}/elsewhere`],
          () => [`http://off.test:${port}/picture.png`],
        ),
      });
      const { crawlId } = await crawl(crawlOptions({ url: main.url('/'), sitemaps: false, checkExternalLinks: false }, 10));
      const rows = await linkRows(crawlId);
      const external = rows.filter((row) => row.kind === 'external');
      assert.deepEqual(
        external.map((row) => row.fetch_error),
        [NOT_CHECKED.turnedOff],
      );
      assert.deepEqual(
        rows.filter((row) => row.kind === 'asset').map((row) => row.status_code),
        [200],
      );
      assert.deepEqual(
        other.requests.paths().map((path) => path.split('?')[0]),
        ['/picture.png'],
      );
    });
  });
}
