import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { insertRunningCrawl, testCrawler } from '../testing/running-crawl.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { type CrawlOptions, crawlOptions } from './crawl-options.ts';
import { CrawlStore } from './crawl-store.ts';
import { fetchPage } from './page-fetcher.ts';

// Issue #23 point 6: a stuck or slow site costs at most its timeouts, and the crawl goes on
// meanwhile. The sites are loopback servers written here, each misbehaving in one way.

const TIMEOUT_MS = 1_000;

/** A loopback server that destroys its open connections when closed (a trickle never ends by itself). */
async function serve(server: Server): Promise<{ origin: string; port: number; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const page = (...links: string[]) =>
  `<!doctype html><html lang="en"><head><title>Slow sites</title></head><body>${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</body></html>`;

const html = (response: ServerResponse, body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

for (const dialect of testDialects()) {
  describe(`slow sites never stall a crawl (${dialect})`, () => {
    let t: TestServer;
    let store: CrawlStore;
    const fetcher = new GuardedFetcher({ allowPrivate: true });
    const limits = { timeoutMs: TIMEOUT_MS, maxBodyBytes: 1024 * 1024, maxRedirects: 10, maxCrawlDelayMs: 50 };

    async function crawl(options: CrawlOptions) {
      const id = await insertRunningCrawl(store, t.owner.workspaceId, options);
      const pages = await testCrawler(t.server.database, fetcher, { limits }).run(id, options, new AbortController().signal, () => {});
      const rows = await t.server.database.db.selectFrom('crawl_urls').selectAll().where('crawl_id', '=', id).execute();
      return { pages, rows, row: (url: string) => rows.find((row) => row.url === url) };
    }

    before(async () => {
      t = await startTestServer(dialect);
      store = new CrawlStore(t.server.database);
    });
    after(async () => {
      await fetcher.close();
      await t.close();
    });

    it('a page that trickles its body forever ends at the deadline, while the other pages are crawled', async () => {
      // What the server saw, in order: each page served, and the trickle's connection dropped.
      const events: string[] = [];
      let trickleClosed!: Promise<unknown>;
      const site = await serve(
        createServer((request, response) => {
          const path = request.url ?? '/';
          if (path === '/trickle') {
            response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            response.write('<!doctype html><html><head><title>Trickle');
            // A byte well within the idle timeout, forever: only a whole deadline ends it.
            const drip = setInterval(() => response.write(' '), TIMEOUT_MS / 10);
            trickleClosed = once(response, 'close').then(() => {
              clearInterval(drip);
              events.push('trickle closed');
            });
            return;
          }
          response.on('finish', () => events.push(`served ${path}`));
          const chain = /^\/chain\/(\d)$/.exec(path);
          if (path === '/') return html(response, page('/trickle', '/chain/1'));
          if (chain) return html(response, Number(chain[1]) < 4 ? page(`/chain/${Number(chain[1]) + 1}`) : page());
          response.writeHead(404).end();
        }),
      );
      try {
        const { pages, row } = await crawl(crawlOptions({ url: `${site.origin}/`, concurrency: 2, sitemaps: false }, 20));
        await trickleClosed;
        assert.equal(pages, 6);
        assert.deepEqual([row(`${site.origin}/trickle`)?.status_code, row(`${site.origin}/trickle`)?.fetch_error], [null, 'timeout']);
        assert.equal(row(`${site.origin}/chain/4`)?.status_code, 200);
        assert.ok(
          events.indexOf('served /chain/4') < events.indexOf('trickle closed'),
          `the chain, each page found on the one before, was crawled while the trickle hung: ${events.join(', ')}`,
        );
      } finally {
        await site.close();
      }
    });

    it('a host that accepts connections and never answers costs a timeout per link, and the crawl completes', async () => {
      const silent = await serve(createNetServer(() => {}));
      const site = await serve(
        createServer((request, response) => {
          if (request.url === '/') {
            return html(response, `${page(`${silent.origin}/page`)}<img src="${silent.origin}/image.png" alt="Never sent">`);
          }
          response.writeHead(404).end();
        }),
      );
      try {
        const { pages, row } = await crawl(crawlOptions({ url: `${site.origin}/`, sitemaps: false }, 5));
        assert.equal(pages, 1);
        assert.equal(row(`${silent.origin}/page`)?.fetch_error, 'timeout');
        assert.equal(row(`${silent.origin}/image.png`)?.fetch_error, 'timeout');
        assert.equal(silent.connections(), 2, 'one HEAD per link, no GET after a timeout');
      } finally {
        await site.close();
        await silent.close();
      }
    });

    it('a start page on a host that never answers is recorded as a timeout', async () => {
      const silent = await serve(createNetServer(() => {}));
      try {
        // Its robots.txt is unreachable too, which disallows the site: not obeyed here, to reach the page.
        const { pages, row } = await crawl(crawlOptions({ url: `${silent.origin}/`, mode: 'page', respectRobots: false }, 1));
        assert.equal(pages, 1);
        assert.deepEqual([row(`${silent.origin}/`)?.status_code, row(`${silent.origin}/`)?.fetch_error], [null, 'timeout']);
      } finally {
        await silent.close();
      }
    });

    for (const file of ['/robots.txt', '/sitemap.xml']) {
      it(`a ${file} that trickles forever is given up at the deadline, and the pages are crawled`, async () => {
        const site = await serve(
          createServer((request, response) => {
            if (request.url === file) {
              response.writeHead(200, { 'content-type': file.endsWith('.txt') ? 'text/plain' : 'application/xml' });
              response.write(file.endsWith('.txt') ? 'User-agent: *\n' : '<?xml version="1.0"?><urlset>');
              const drip = setInterval(() => response.write(' '), TIMEOUT_MS / 10);
              response.on('close', () => clearInterval(drip));
              return;
            }
            if (request.url === '/') return html(response, page('/next'));
            if (request.url === '/next') return html(response, page());
            response.writeHead(404).end();
          }),
        );
        try {
          // robots.txt unreachable disallows the site, as Google's rules say: not obeyed, to see the pages crawled.
          const { pages, row } = await crawl(crawlOptions({ url: `${site.origin}/`, respectRobots: false }, 5));
          assert.equal(pages, 2);
          assert.equal(row(`${site.origin}/next`)?.status_code, 200);
          const facts = await store.siteFacts(row(`${site.origin}/`)!.crawl_id);
          if (file === '/robots.txt') assert.equal(facts?.robots.status, 'unreachable');
          else assert.deepEqual([facts?.sitemaps?.files[0]?.status, facts?.sitemaps?.files[0]?.kind], [0, 'invalid']);
        } finally {
          await site.close();
        }
      });
    }

    describe('a redirect maze: every URL redirects to a new one, forever', () => {
      let maze: Awaited<ReturnType<typeof serve>>;
      let hopDelayMs = 0;
      before(async () => {
        maze = await serve(
          createServer((request, response) => {
            const step = Number(/^\/maze\/(\d+)$/.exec(request.url ?? '')?.[1] ?? 0);
            const answer = () => response.writeHead(302, { location: `/maze/${step + 1}` }).end();
            if (request.url === '/robots.txt') return response.writeHead(404).end();
            if (hopDelayMs > 0) setTimeout(answer, hopDelayMs);
            else answer();
          }),
        );
      });
      after(() => maze.close());

      it('a site crawl queues each hop as a page and stops at maxPages', async () => {
        hopDelayMs = 0;
        const { pages, rows } = await crawl(crawlOptions({ url: `${maze.origin}/maze/0`, concurrency: 2, sitemaps: false }, 15));
        assert.equal(pages, 15);
        assert.ok(rows.filter((row) => row.state === 'done').every((row) => row.status_code === 302));
      });

      it('a page audit follows it for maxRedirects hops', async () => {
        hopDelayMs = 0;
        const { row } = await crawl(crawlOptions({ url: `${maze.origin}/maze/0`, mode: 'page' }, 1));
        assert.equal(row(`${maze.origin}/maze/0`)?.fetch_error, 'too-many-redirects');
      });

      it('slow hops cost one deadline for the whole chain, not a timeout per hop', async () => {
        // Each hop answers well within the idle timeout; ten of them would not.
        hopDelayMs = TIMEOUT_MS / 4;
        const fetched = await fetchPage(fetcher, `${maze.origin}/maze/0`, {
          timeoutMs: TIMEOUT_MS,
          maxBodyBytes: 1024,
          maxRedirects: 10,
          userAgent: 'LoupeBot/test',
          headers: {},
        });
        assert.equal(fetched.error, 'timeout');
        assert.ok(fetched.redirects.length < 10, `stopped after ${fetched.redirects.length} hops`);
      });
    });
  });
}
