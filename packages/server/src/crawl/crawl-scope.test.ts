import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { htmlPage } from '../testing/html-page.ts';
import { insertRunningCrawl, testCrawler } from '../testing/running-crawl.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { ORIGIN, type PageSpec, type SiteDefinition, startTestSite, type TestSite } from '../testing/test-site.ts';
import { crawlOptions } from './crawl-options.ts';
import { CrawlStore } from './crawl-store.ts';
import type { SiteFacts } from './site-facts.ts';

const page = (path: string, links: string[] = []) => htmlPage({ path, title: `The page at ${path}`, links, words: 40 });

/** A site whose sitemap lists pages no link reaches: some in /docs, some elsewhere. */
function sitemapSite(): SiteDefinition {
  const listed = ['/docs/listed', '/blog/post', '/orphan.html'];
  return {
    pages: {
      '/': page('/', ['/docs/intro']),
      '/docs/intro': page('/docs/intro'),
      ...Object.fromEntries(listed.map((path) => [path, page(path)])),
    },
    robotsTxt: `User-agent: *\nAllow: /\nSitemap: ${ORIGIN}/sitemap.xml\n`,
    sitemaps: {
      '/sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', ...listed]
        .map((path) => `<url><loc>${ORIGIN}${path}</loc></url>`)
        .join('')}</urlset>`,
    },
  };
}

/** A site whose robots.txt keeps crawlers out of /private, served as `robots`. */
function robotsSite(robots: PageSpec): SiteDefinition {
  return {
    pages: {
      '/': page('/', ['/public', '/private']),
      '/public': page('/public'),
      '/private': page('/private'),
      '/robots.txt': robots,
      '/moved-robots.txt': { body: 'User-agent: *\nDisallow: /private\n', contentType: 'text/plain' },
    },
  };
}

const DISALLOW_PRIVATE = 'User-agent: *\nDisallow: /private\n';

for (const dialect of testDialects()) {
  describe(`crawl scope and robots.txt (${dialect})`, () => {
    let t: TestServer;
    let store: CrawlStore;
    const fetcher = new GuardedFetcher({ allowPrivate: true });
    const sites: TestSite[] = [];
    const crawler = () => testCrawler(t.server.database, fetcher);

    /** Crawls a fresh copy of `definition`: the pages charged, the paths the site was asked, the site facts. */
    async function crawlSite(definition: SiteDefinition, request: Omit<Parameters<typeof crawlOptions>[0], 'url'> = {}) {
      const site = await startTestSite(definition);
      sites.push(site);
      const options = crawlOptions({ url: site.url('/'), ...request }, 50);
      const crawlId = await insertRunningCrawl(store, t.owner.workspaceId, options);
      const pages = await crawler().run(crawlId, options, new AbortController().signal, () => {});
      const asked = new Set(site.requests.paths().map((path) => path.split('?')[0]));
      return { pages, asked, facts: (await store.siteFacts(crawlId)) as SiteFacts };
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

    it('crawls what the sitemap lists when nothing keeps it out', async () => {
      const { pages, asked } = await crawlSite(sitemapSite());
      for (const path of ['/docs/listed', '/blog/post', '/orphan.html']) assert.ok(asked.has(path), path);
      assert.equal(pages, 5);
    });

    it('never asks for or charges sitemap URLs an exclude glob matches', async () => {
      const { pages, asked, facts } = await crawlSite(sitemapSite(), { exclude: ['/orphan.html'] });
      assert.ok(!asked.has('/orphan.html'));
      assert.equal(pages, 4);
      assert.equal(facts.sitemaps?.outOfScopeUrls, 1);
    });

    it('never asks for sitemap URLs outside the include globs', async () => {
      const { pages, asked, facts } = await crawlSite(sitemapSite(), { include: ['/docs/**'] });
      assert.ok(asked.has('/docs/listed') && asked.has('/docs/intro'));
      assert.ok(!asked.has('/blog/post') && !asked.has('/orphan.html'));
      assert.equal(pages, 3, 'the start page, and the two in /docs');
      assert.equal(facts.sitemaps?.outOfScopeUrls, 2);
    });

    it('takes sitemap URLs as one click deep: maxDepth 0 crawls the start page alone', async () => {
      const { pages, asked, facts } = await crawlSite(sitemapSite(), { maxDepth: 0 });
      assert.equal(pages, 1);
      for (const path of ['/docs/intro', '/docs/listed', '/blog/post', '/orphan.html']) assert.ok(!asked.has(path), path);
      assert.equal(facts.sitemaps?.listedUrls, 4);
      assert.equal(facts.sitemaps?.outOfScopeUrls, 3);
    });

    for (const [name, robots] of [
      ['without a Content-Type', { body: DISALLOW_PRIVATE, headers: { 'content-type': null } }],
      ['as application/octet-stream', { body: DISALLOW_PRIVATE, contentType: 'application/octet-stream' }],
      ['as text/html', { body: DISALLOW_PRIVATE, contentType: 'text/html' }],
      ['behind a redirect', { redirect: '/moved-robots.txt' }],
    ] as [string, PageSpec][]) {
      it(`reads a robots.txt served ${name}, and keeps out of what it disallows`, async () => {
        const { asked, facts } = await crawlSite(robotsSite(robots), { sitemaps: false });
        assert.equal(facts.robots.status, 'ok');
        assert.ok(asked.has('/public'));
        assert.ok(!asked.has('/private'), 'the disallowed page was fetched');
      });
    }

    it('takes a robots.txt answering 404 as allowing everything', async () => {
      const { asked, facts } = await crawlSite(robotsSite({ status: 404, body: DISALLOW_PRIVATE, contentType: 'text/plain' }), {
        sitemaps: false,
      });
      assert.equal(facts.robots.status, 'missing');
      assert.ok(asked.has('/private'));
    });

    it('takes a robots.txt answering 503 as disallowing the whole site', async () => {
      const { pages, asked, facts } = await crawlSite(robotsSite({ status: 503, body: '', contentType: 'text/plain' }), {
        sitemaps: false,
      });
      assert.equal(facts.robots.status, 'error');
      assert.deepEqual(
        [...asked].filter((path) => path !== '/robots.txt'),
        [],
      );
      assert.equal(pages, 0, 'a page blocked by robots.txt is not fetched, and not charged');
    });
  });
}
