import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { zstdCompressSync } from 'node:zlib';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { type StoredPage, StoredPageStore } from './stored-page-store.ts';

for (const dialect of testDialects()) {
  describe(`stored pages (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let pages: StoredPage[];

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite({
        pages: {
          '/': htmlPage({
            path: '/',
            title: 'Home of Widgets',
            h1: 'Widgets',
            body: '<p>Blue <b>widgets</b> &amp; gadgets.</p>',
            links: ['/gone', '/other', 'https://example.com/x'],
          }),
          '/other': htmlPage({ path: '/other', links: ['/'] }),
          '/gone': { status: 404, body: '<html><body><h1>Missing page</h1></body></html>' },
        },
      });
      const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false });
      const crawl = (await t.request('GET', `/api/v1/crawls/${report.crawlId}`)).body;
      const store = new StoredPageStore(t.server.database);
      pages = [];
      for await (const batch of store.each(crawl.id, { html: true, batch: 1 })) pages.push(...batch);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const byPath = (path: string) => {
      const page = pages.find((p) => new URL(p.url).pathname === path);
      assert.ok(page, `no stored page ${path}`);
      return page;
    };

    it('keeps every fetched page once, in id order, across batches', () => {
      assert.deepEqual(pages.map((p) => new URL(p.url).pathname).sort(), ['/', '/gone', '/other']);
      assert.deepEqual(
        pages.map((p) => p.id),
        [...pages.map((p) => p.id)].sort(),
      );
    });

    it('gives back the markup as served and the visible words as written', () => {
      const home = byPath('/');
      assert.match(home.html ?? '', /<title>Home of Widgets<\/title>/);
      assert.match(home.text ?? '', /Blue widgets & gadgets\./);
      assert.doesNotMatch(home.text ?? '', /<b>|Home of Widgets/, 'the title is not body text');
      assert.equal(home.status, 200);
      assert.equal(home.depth, 0);
      assert.equal(home.inlinks, 1);
      assert.equal(home.summary?.title, 'Home of Widgets');
      assert.equal(home.summary?.externalLinkCount, 1);
      assert.equal(home.summary?.internalLinkCount, 2);
      assert.equal(home.headers['content-type'], 'text/html; charset=utf-8');
    });

    it('keeps the markup of an error page too, without a text for its checks', () => {
      const gone = byPath('/gone');
      assert.equal(gone.status, 404);
      assert.match(gone.html ?? '', /Missing page/);
      assert.equal(gone.text, '');
    });

    it('leaves the markup out unless asked for', async () => {
      const crawlId = (await t.request('GET', '/api/v1/reports')).body[0].crawlId;
      const [first] = await new StoredPageStore(t.server.database).pages(crawlId, { limit: 1, html: false });
      assert.equal(first?.html, null);
      assert.ok(first?.text !== null);
    });

    it('gives back the rendered DOM a rendering crawl kept, unless told to leave it out', async () => {
      const crawlId = (await t.request('GET', '/api/v1/reports')).body[0].crawlId;
      const { db } = t.server.database;
      const home = byPath('/');
      assert.equal(home.renderedHtml, null, 'this crawl rendered nothing');
      const dom = '<html><head></head><body><h1>Rendered</h1></body></html>';
      await db
        .insertInto('crawl_page_renders')
        .values({ crawl_id: crawlId, url_id: home.id, html: zstdCompressSync(dom), lab: 'null', screenshot: null })
        .execute();
      try {
        const read = async (query: { html: boolean; renderedHtml?: boolean }) =>
          (await new StoredPageStore(t.server.database).pages(crawlId, { limit: 10, ...query })).find((page) => page.id === home.id)
            ?.renderedHtml;
        assert.equal(await read({ html: true }), dom);
        assert.equal(await read({ html: true, renderedHtml: false }), null);
        assert.equal(await read({ html: false }), null);
      } finally {
        await db.deleteFrom('crawl_page_renders').where('crawl_id', '=', crawlId).execute();
      }
    });

    it('drops the bodies with the report', async () => {
      const report = (await t.request('GET', '/api/v1/reports')).body[0];
      assert.equal((await t.request('DELETE', `/api/v1/reports/${report.id}`)).status, 200);
      assert.deepEqual(await new StoredPageStore(t.server.database).pages(report.crawlId, { limit: 10, html: true }), []);
      const left = await t.server.database.db
        .selectFrom('crawl_page_bodies')
        .select('url_id')
        .where('crawl_id', '=', report.crawlId)
        .execute();
      assert.deepEqual(left, []);
    });
  });
}
