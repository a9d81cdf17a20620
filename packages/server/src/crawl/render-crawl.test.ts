import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { zstdDecompressSync } from 'node:zlib';
import { type PageLab, RENDERED_PAGE_CREDITS } from '@loupe/contract';
import sharp from 'sharp';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { DEFAULT_CHROMIUM } from '../rendering/rendering-browser.ts';
import { insertRunningCrawl, testCrawler } from '../testing/running-crawl.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { crawlOptions } from './crawl-options.ts';
import { CrawlStore } from './crawl-store.ts';
import { FrontierStore } from './frontier-store.ts';

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/**
 * A single-page app: the start page's HTML is an empty shell, its script writes the title,
 * the heading, the text and the only links to two more pages. A raw crawl sees one page.
 */
const SPA_SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading</title>
<script src="/app.js" defer></script></head><body><div id="app"></div></body></html>`;
const APP_JS = `document.title = 'Shop home';
document.getElementById('app').innerHTML = '<h1>Welcome to the shop</h1><p>' + 'Fresh bread every morning. '.repeat(30) + '</p>' +
  '<a href="/spa/bread">Bread</a> <a href="/spa/cakes">Cakes</a>';`;

const SITE = {
  pages: {
    '/': SPA_SHELL,
    '/app.js': { contentType: 'text/javascript', body: APP_JS },
    '/spa/bread': page('Bread', '<h1>Bread</h1><p>Sourdough and rye.</p>'),
    '/spa/cakes': page('Cakes', '<h1>Cakes</h1><p>Lemon and chocolate.</p>'),
  },
};

/** The shop with one page whose script never ends: it costs its budget and the crawl goes on. */
const HANGING_SITE = {
  pages: {
    ...SITE.pages,
    '/spa/cakes': page('Cakes', '<h1>Cakes</h1><a href="/spa/slow">Slow</a>'),
    '/spa/slow': page('Slow', '<p>Busy</p>', `<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>`),
  },
};

for (const dialect of testDialects()) {
  describe(`rendering crawls (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let hanging: TestSite;
    before(async () => {
      const plan = { imageProjects: 3, imagesPerProject: 10, scheduledCrawls: false, customRulePacks: false, pagesPerCrawl: 60 };
      t = await startTestServer(dialect, {
        plans: { free: { ...plan, monthlyCredits: 1000 }, tiny: { ...plan, monthlyCredits: 50 } },
        crawlAllowPrivate: true,
        // The hanging page's budget: long enough for the other pages on a loaded machine.
        rendering: { executablePath: DEFAULT_CHROMIUM, concurrency: 4, timeoutSeconds: 10, memoryBudgetBytes: 1024 ** 3 },
      });
      site = await startTestSite(SITE);
      hanging = await startTestSite(HANGING_SITE);
    });
    after(async () => {
      await site?.close();
      await hanging?.close();
      await t?.close();
    });

    async function crawl(body: Record<string, unknown>, of: TestSite = site) {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: of.url('/'), sitemaps: false, ...body } });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const events = await followCrawlEvents(t, started.body.id);
      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.equal(crawl.status, 'completed', JSON.stringify(events.at(-1)));
      const pages = (await t.request('GET', `/api/v1/reports/${crawl.reportId}/pages?limit=100`)).body as {
        url: string;
        title: string | null;
      }[];
      return { started: started.body, crawl, pages };
    }

    async function renders(crawlId: string) {
      const rows = await t.server.database.db
        .selectFrom('crawl_page_renders as r')
        .innerJoin('crawl_urls as u', 'u.id', 'r.url_id')
        .select(['u.url', 'r.html', 'r.lab', 'r.screenshot'])
        .where('r.crawl_id', '=', crawlId)
        .execute();
      return new Map(
        rows.map((row) => [
          new URL(row.url).pathname,
          {
            html: row.html ? zstdDecompressSync(row.html).toString('utf8') : null,
            lab: JSON.parse(row.lab) as PageLab,
            screenshot: row.screenshot ? Buffer.from(row.screenshot) : null,
          },
        ]),
      );
    }

    it('follows links that exist only after JavaScript, and audits the page the browser showed', async () => {
      const raw = await crawl({ maxPages: 10 });
      assert.deepEqual(
        raw.pages.map((p) => new URL(p.url).pathname),
        ['/'],
        'a raw crawl sees the shell only',
      );
      assert.equal(raw.started.render, false);

      const balance = (await t.request('GET', '/api/v1/team/credits')).body.balance;
      const rendered = await crawl({ maxPages: 10, render: true });
      assert.equal(rendered.started.render, true);
      const byPath = new Map(rendered.pages.map((p) => [new URL(p.url).pathname, p]));
      assert.deepEqual([...byPath.keys()].sort(), ['/', '/spa/bread', '/spa/cakes']);
      assert.equal(byPath.get('/')?.title, 'Shop home', 'the title the script wrote');

      const kept = await renders(rendered.crawl.id);
      const home = kept.get('/');
      assert.ok(home);
      assert.ok(home.html?.includes('Welcome to the shop'), 'the rendered DOM is kept');
      assert.equal(home.lab.error, null);
      assert.ok(home.lab.metrics && home.lab.metrics.fcpMs !== null, 'lab metrics were read');
      assert.ok(home.lab.transfer.byKind.script.requests >= 1, 'the app script was counted');
      assert.ok(home.screenshot, 'a screenshot is kept');
      const shot = await sharp(home.screenshot).metadata();
      assert.equal(shot.format, 'jpeg');
      assert.ok((shot.width ?? 0) > 0 && (shot.width ?? 0) <= 800);

      // The raw markup is still the site's own, kept for rule packs and search.
      const body = await t.server.database.db
        .selectFrom('crawl_page_bodies as b')
        .innerJoin('crawl_urls as u', 'u.id', 'b.url_id')
        .select('b.html')
        .where('b.crawl_id', '=', rendered.crawl.id)
        .where('u.url', '=', site.url('/'))
        .executeTakeFirstOrThrow();
      assert.equal(zstdDecompressSync(body.html).toString('utf8'), SPA_SHELL);

      // Three HTML pages rendered, at RENDERED_PAGE_CREDITS each; /app.js is no page of the crawl.
      assert.equal(rendered.started.creditsReserved, 10 * RENDERED_PAGE_CREDITS);
      assert.deepEqual([rendered.crawl.pagesCrawled, rendered.crawl.creditsCharged], [3, 3 * RENDERED_PAGE_CREDITS]);
      assert.equal((await t.request('GET', '/api/v1/team/credits')).body.balance, balance - 3 * RENDERED_PAGE_CREDITS);
    });

    it('gives a page that never ends its budget and its error, and goes on', async () => {
      const { crawl: ended, pages } = await crawl({ maxPages: 10, render: true }, hanging);
      assert.equal(pages.length, 4);
      const kept = await renders(ended.id);
      assert.equal(kept.get('/spa/slow')?.lab.error, 'timeout');
      assert.equal(kept.get('/spa/slow')?.html, null, 'a page that did not finish leaves its raw facts in place');
      assert.equal(kept.get('/spa/cakes')?.lab.error, null);
    });

    it('estimates and refuses by the rendered price', async () => {
      const poor = await t.createWorkspace({ plan: 'tiny' });
      const as = { key: poor.key, team: poor.workspaceId };
      const estimate = await t.request('POST', '/api/v1/crawls/estimate', {
        body: { url: site.url('/'), maxPages: 11, render: true },
        ...as,
      });
      assert.deepEqual(estimate.body, {
        maxPages: 11,
        capped: false,
        creditsPerPage: RENDERED_PAGE_CREDITS,
        credits: 11 * RENDERED_PAGE_CREDITS,
        balance: 50,
        sufficient: false,
      });
      const refused = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 11, render: true }, ...as });
      assert.deepEqual(
        [refused.status, refused.body.code, refused.body.required, refused.body.balance],
        [402, 'insufficient_credits', 55, 50],
      );
      const fits = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 10, render: true }, ...as });
      assert.equal(fits.status, 202);
      await followCrawlEvents(t, fits.body.id, as);
      for (const render of [0, 'yes', null]) {
        const answer = await t.request('POST', '/api/v1/crawls/estimate', { body: { url: site.url('/'), render }, ...as });
        assert.deepEqual([answer.status, answer.body.code], [400, 'validation_failed'], JSON.stringify(render));
      }
    });

    it('takes render from the project default, and a crawl may turn it off', async () => {
      const project = await t.request('POST', '/api/v1/projects', {
        body: { name: 'Shop', siteUrl: site.url('/'), crawlDefaults: { render: true, sitemaps: false, maxPages: 3 } },
      });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      const estimate = (body: Record<string, unknown>) =>
        t.request('POST', `/api/v1/projects/${project.body.id}/crawls/estimate`, { body });
      assert.deepEqual([(await estimate({})).body.creditsPerPage, (await estimate({ render: false })).body.creditsPerPage], [5, 1]);
    });
  });
}

describe('rendering crawls on a server without a browser', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer('sqlite', {
      crawlAllowPrivate: true,
      rendering: { executablePath: '/nonexistent/chromium', concurrency: 1, timeoutSeconds: 5, memoryBudgetBytes: 256 * 1024 * 1024 },
    });
  });
  after(async () => {
    await t?.close();
  });

  it('answers 501 rendering_unavailable to start or estimate, and crawls raw as before', async () => {
    const body = { url: 'http://127.0.0.1:9/', render: true };
    for (const path of ['/api/v1/crawls', '/api/v1/crawls/estimate']) {
      const answer = await t.request('POST', path, { body });
      assert.deepEqual([answer.status, answer.body.code], [501, 'rendering_unavailable'], path);
    }
    assert.equal((await t.request('POST', '/api/v1/crawls/estimate', { body: { ...body, render: false } })).status, 200);
  });
});

for (const dialect of testDialects()) {
  describe(`a rendering crawl stopped while a page is in the browser (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    const fetcher = new GuardedFetcher({ allowPrivate: true });
    let verdicts = 0;
    before(async () => {
      t = await startTestServer(dialect);
      // The stuck page asks the site whether to hang: the first time it does, forever (longer
      // than the test's own timeout, so only closing the browser ends it), then never again.
      site = await startTestSite({
        pages: {
          '/': page('Home', '<a href="/stuck">Stuck</a> <a href="/plain">Plain</a>'),
          '/plain': page('Plain', '<p>Nothing to see.</p>'),
          '/stuck': page(
            'Stuck',
            '<p>Asks first</p>',
            `<script>fetch('/verdict').then((answer) => answer.text()).then((verdict) => { if (verdict === 'hang') for (;;) {} });</script>`,
          ),
        },
        fallback: (path) => (path === '/verdict' ? { contentType: 'text/plain', body: verdicts++ === 0 ? 'hang' : 'go' } : undefined),
      });
    });
    after(async () => {
      await site?.close();
      await fetcher.close();
      await t?.close();
    });

    it('closes the browser at once, leaves the page to the resume, and renders it then', async () => {
      const crawler = testCrawler(t.server.database, fetcher, {
        rendering: {
          executablePath: DEFAULT_CHROMIUM,
          allowPrivate: true,
          concurrency: 2,
          pagesPerContext: 50,
          memoryBudgetBytes: 1024 ** 3,
          timeoutMs: 600_000,
          settleMs: 1_000,
        },
      });
      const options = crawlOptions({ url: site.url('/'), render: true, sitemaps: false, concurrency: 1 }, 10);
      const crawlId = await insertRunningCrawl(new CrawlStore(t.server.database), t.owner.workspaceId, options);
      const stop = new AbortController();
      const first = crawler.run(crawlId, options, stop.signal, () => {});
      await site.requests.waitFor('/verdict');
      stop.abort();
      await first;
      const frontier = new FrontierStore(t.server.database);
      assert.equal(await frontier.countRendered(crawlId), await frontier.countDone(crawlId, 'page'), 'every page done was rendered');
      const stuck = await t.server.database.db
        .selectFrom('crawl_urls')
        .select('state')
        .where('crawl_id', '=', crawlId)
        .where('url', '=', site.url('/stuck'))
        .executeTakeFirstOrThrow();
      assert.equal(stuck.state, 'queued', 'the page in the browser waits for the resume');

      const pages = await crawler.run(crawlId, options, new AbortController().signal, () => {});
      assert.equal(pages, 3);
      assert.equal(verdicts, 2, 'the page hung in the first run and was loaded again in the second');
      assert.equal(await frontier.countRendered(crawlId), 3);
      const lab = await t.server.database.db
        .selectFrom('crawl_page_renders as r')
        .innerJoin('crawl_urls as u', 'u.id', 'r.url_id')
        .select('r.lab')
        .where('r.crawl_id', '=', crawlId)
        .where('u.url', '=', site.url('/stuck'))
        .executeTakeFirstOrThrow();
      assert.equal((JSON.parse(lab.lab) as PageLab).error, null);
    });
  });
}
