import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { htmlPage } from '../testing/html-page.ts';
import { insertRunningCrawl, testBuildReport, testCrawler } from '../testing/running-crawl.ts';
import { testCertificate } from '../testing/test-certificate.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { ORIGIN, type SiteDefinition, startTestSite, type TestSite } from '../testing/test-site.ts';
import { crawlOptions } from './crawl-options.ts';
import { CrawlStore } from './crawl-store.ts';
import { checkHttpTwins, httpTwin } from './http-twin-check.ts';

const page = (path: string, title: string) => htmlPage({ path, title, links: ['/', '/tea', '/coffee', '/cocoa', '/juice'] });

/** Five https pages; `plainHttp` says what their http:// twins on the same port answer. */
function httpsSite(plainHttp: SiteDefinition): { site: SiteDefinition; tls: typeof testCertificate & { plainHttp: SiteDefinition } } {
  return {
    site: {
      pages: {
        '/': page('/', 'A shop served over https, with its http twin on the same port'),
        '/tea': page('/tea', 'Tea, served over https'),
        '/coffee': page('/coffee', 'Coffee, served over https'),
        '/cocoa': page('/cocoa', 'Cocoa, served over https'),
        '/juice': page('/juice', 'Juice, served over https'),
      },
      robotsTxt: 'User-agent: *\nDisallow:\n',
    },
    tls: { ...testCertificate, plainHttp },
  };
}

/** Every http:// URL answers 301 to its https twin. */
const redirectsEverything: SiteDefinition = { pages: {}, fallback: (path) => ({ redirect: ORIGIN + path, status: 301 }) };

/** 308 for tea, then the usual mistakes: a temporary redirect, a redirect to the home page, the page itself over http. */
const halfRedirected: SiteDefinition = {
  pages: {
    '/': { redirect: `${ORIGIN}/`, status: 301 },
    '/tea': { redirect: `${ORIGIN}/tea`, status: 308 },
    '/coffee': { redirect: `${ORIGIN}/coffee`, status: 302 },
    '/cocoa': { redirect: `${ORIGIN}/`, status: 301 },
    '/juice': htmlPage({ path: '/juice', title: 'Juice, served over plain http' }),
  },
};

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('httpTwin', () => {
  it('changes the scheme only: the default port follows it, an explicit one stays', () => {
    assert.equal(httpTwin('https://example.com/a?b=1'), 'http://example.com/a?b=1');
    assert.equal(httpTwin('https://example.com:8443/a'), 'http://example.com:8443/a');
  });
});

describe('checkHttpTwins against a local https site whose port also speaks http', () => {
  const fetcher = new GuardedFetcher({ allowPrivate: true, ca: testCertificate.cert });
  const sites: TestSite[] = [];
  const start = async (plainHttp: SiteDefinition) => {
    const { site, tls } = httpsSite(plainHttp);
    const started = await startTestSite(site, { tls });
    sites.push(started);
    return started;
  };
  const paths = ['/', '/tea', '/coffee', '/cocoa', '/juice'];
  after(async () => {
    await Promise.all(sites.map((site) => site.close()));
    await fetcher.close();
  });

  it('passes twins that answer 301 or 308 to their https URL', async () => {
    const s = await start(redirectsEverything);
    const result = await checkHttpTwins(
      fetcher,
      paths.map((path) => s.url(path)),
      { timeoutMs: 5_000, userAgent: 'LoupeBot/1.0' },
    );
    assert.deepEqual(result, { url: httpTwin(s.url('/')), checked: 5, notRedirected: 0, samples: [], unanswered: 0, skipped: 0 });
    assert.deepEqual(s.plainRequests.paths().sort(), [...paths].sort(), 'each twin asked once, over plain http');
    assert.equal(s.requests.total, 0, 'no https request was needed');
  });

  it('fails a temporary redirect, a redirect elsewhere and a page served over http, saying what each answered', async () => {
    const s = await start(halfRedirected);
    const result = await checkHttpTwins(
      fetcher,
      paths.map((path) => s.url(path)),
      { timeoutMs: 5_000, userAgent: 'LoupeBot/1.0' },
    );
    assert.deepEqual([result.checked, result.notRedirected, result.unanswered], [5, 3, 0]);
    assert.deepEqual([...result.samples].sort(), [
      `${httpTwin(s.url('/cocoa'))} → 301 ${s.url('/')}`,
      `${httpTwin(s.url('/coffee'))} → 302 ${s.url('/coffee')}`,
      `${httpTwin(s.url('/juice'))} → 200`,
    ]);
  });

  it('does not count a twin nothing answers on, and asks nothing once the budget is spent', async () => {
    const silent = `https://127.0.0.1:${await closedPort()}/`;
    const result = await checkHttpTwins(fetcher, [silent], { timeoutMs: 5_000, userAgent: 'LoupeBot/1.0' });
    assert.deepEqual([result.checked, result.notRedirected, result.unanswered], [0, 0, 1]);

    const s = await start(halfRedirected);
    const spent = await checkHttpTwins(
      fetcher,
      paths.map((path) => s.url(path)),
      { timeoutMs: 5_000, userAgent: 'LoupeBot/1.0', budgetMs: 0 },
    );
    assert.deepEqual([spent.checked, spent.skipped], [0, 5]);
    assert.equal(s.plainRequests.total, 0);
  });

  it('goes through the address guard: a private address is not asked without LOUPE_CRAWL_ALLOW_PRIVATE', async () => {
    const s = await start(halfRedirected);
    const guarded = new GuardedFetcher({ allowPrivate: false, ca: testCertificate.cert });
    const result = await checkHttpTwins(guarded, [s.url('/juice')], { timeoutMs: 5_000, userAgent: 'LoupeBot/1.0' });
    await guarded.close();
    assert.deepEqual([result.checked, result.unanswered], [0, 1]);
    assert.equal(s.plainRequests.total, 0);
  });

  it('cannot reach the https site through a fetcher that does not trust its certificate', async () => {
    const s = await start(redirectsEverything);
    const untrusting = new GuardedFetcher({ allowPrivate: true });
    await assert.rejects(untrusting.open(new URL(s.url('/')), { method: 'GET', timeoutMs: 5_000 }), /self-signed|SELF_SIGNED/i);
    await untrusting.close();
  });
});

for (const dialect of testDialects()) {
  describe(`redirects/http-not-redirected through a crawl (${dialect})`, () => {
    let t: TestServer;
    let store: CrawlStore;
    const fetcher = new GuardedFetcher({ allowPrivate: true, ca: testCertificate.cert });
    const sites: TestSite[] = [];
    const crawler = () => testCrawler(t.server.database, fetcher);

    /** Crawls `url` as the crawl job would, builds its report and reads it through the API. */
    async function crawlAndReport(url: string, extra: { headers?: Record<string, string> } = {}) {
      const options = crawlOptions({ url, ...extra }, 20);
      const id = await insertRunningCrawl(store, t.owner.workspaceId, options);
      const pages = await crawler().run(id, options, new AbortController().signal, () => {});
      const row = await store.byId(id);
      const reportId = await testBuildReport(t.server.database)({ ...row!, status: 'completed' });
      const report = await t.request('GET', `/api/v1/reports/${reportId}`);
      assert.equal(report.status, 200);
      return {
        pages,
        facts: await store.siteFacts(id),
        report: report.body as {
          issues: {
            ruleId: string;
            scope: string;
            pages: number;
            share: number | null;
            examples: { url: string; samples: string[]; detail: string | null }[];
          }[];
        },
      };
    }

    before(async () => {
      t = await startTestServer(dialect);
      store = new CrawlStore(t.server.database);
    });
    after(async () => {
      await Promise.all(sites.map((site) => site.close()));
      await fetcher.close();
      await t.close();
    });

    it('reports the share of the sampled pages whose http:// twin is not redirected, as a finding of the site', async () => {
      const { site, tls } = httpsSite(halfRedirected);
      const s = await startTestSite(site, { tls });
      sites.push(s);
      const { pages, report } = await crawlAndReport(s.url('/'), { headers: { cookie: 'session=secret' } });
      assert.equal(pages, 5);
      const issue = report.issues.find((i) => i.ruleId === 'redirects/http-not-redirected');
      assert.ok(issue, JSON.stringify(report.issues.map((i) => i.ruleId)));
      assert.deepEqual([issue.scope, issue.pages, issue.share], ['site', 0, 0.6]);
      assert.deepEqual([issue.examples[0]?.url, issue.examples[0]?.detail], [httpTwin(s.url('/')), '3 of 5 http:// URLs asked']);
      assert.deepEqual(s.plainRequests.paths().sort(), ['/', '/cocoa', '/coffee', '/juice', '/tea']);
      assert.ok(
        s.requests.forPath('/tea').every((r) => r.headers.cookie === 'session=secret'),
        "the crawl's headers go over https",
      );
      assert.ok(
        s.plainRequests.entries.every((r) => r.headers.cookie === undefined),
        'and never over plain http',
      );
    });

    it('finds nothing when every http:// twin redirects permanently', async () => {
      const { site, tls } = httpsSite(redirectsEverything);
      const s = await startTestSite(site, { tls });
      sites.push(s);
      const { facts, report } = await crawlAndReport(s.url('/'));
      assert.equal(
        report.issues.find((i) => i.ruleId === 'redirects/http-not-redirected'),
        undefined,
      );
      assert.deepEqual([facts?.httpTwins?.checked, facts?.httpTwins?.notRedirected], [5, 0]);
    });

    it('asks no twin when the crawl itself is over http', async () => {
      const s = await startTestSite(httpsSite(halfRedirected).site);
      sites.push(s);
      const { facts, report } = await crawlAndReport(s.url('/'));
      assert.equal(facts?.httpTwins, undefined);
      assert.equal(
        report.issues.find((i) => i.ruleId === 'redirects/http-not-redirected'),
        undefined,
      );
    });
  });
}
