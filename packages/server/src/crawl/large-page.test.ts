import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { zstdDecompressSync } from 'node:zlib';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { KEPT_TEXT_CHARS } from '../page-facts/visible-text.ts';
import { insertRunningCrawl, TEST_CRAWL_LIMITS, testCrawler } from '../testing/running-crawl.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { crawlOptions } from './crawl-options.ts';
import { CrawlStore } from './crawl-store.ts';
import { urlKey } from './frontier-store.ts';

const LINKS = 5_000;
/** Visible words of one list item: "Term", its number, "said", "&", "explained", "in", "a", "few", "words". */
const WORDS_PER_ITEM = 9;

/**
 * An index page as documentation sites have them: 5,000 links in about 500 KB, two thirds to
 * the site's own pages (with fragments, some with a tracking parameter), a third to another
 * site, one in ten repeating a link nine before it. Returns the page and the distinct URLs
 * its links normalize to.
 */
function indexPage(siteOrigin: string, otherOrigin: string) {
  const items: string[] = [];
  const internal = new Set<string>();
  const external = new Set<string>();
  let internalLinks = 0;
  for (let i = 0; i < LINKS; i++) {
    const target = i % 10 === 9 ? i - 9 : i;
    if (target % 3 === 0) {
      external.add(`${otherOrigin}/page/${target}`);
      items.push(`<li class="t"><a href="${otherOrigin}/page/${target}">Term ${i}</a> said &amp; explained in a few words</li>`);
      continue;
    }
    internalLinks++;
    internal.add(`${siteOrigin}/docs/term-${target}.html`);
    const query = i % 250 === 1 ? '?utm_source=index' : '';
    items.push(`<li class="t"><a href="/docs/term-${target}.html${query}#s${i}">Term ${i}</a> said &amp; explained in a few words</li>`);
  }
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Index of the manual, every term</title>' +
    '<meta name="description" content="Every term of the manual and the sections that explain it, in alphabetical order."></head>' +
    `<body><h1>Index</h1><ul>\n${items.join('\n')}\n</ul></body></html>`;
  return { html, internal, external, internalLinks };
}

for (const dialect of testDialects()) {
  describe(`a page of 5,000 links and 500 KB (${dialect})`, () => {
    let t: TestServer;
    let store: CrawlStore;
    let site: TestSite;
    let page: ReturnType<typeof indexPage>;
    const fetcher = new GuardedFetcher({ allowPrivate: true });

    before(async () => {
      t = await startTestServer(dialect);
      store = new CrawlStore(t.server.database);
      // The other site's origin is only written into links: they are kept, not checked.
      const pages: Record<string, string> = {};
      site = await startTestSite({ pages, fallback: () => '<!doctype html><title>A term</title><p>Term.</p>' });
      page = indexPage(site.origin, 'http://127.0.0.2:9');
      pages['/'] = page.html;
    });
    after(async () => {
      await site.close();
      await fetcher.close();
      await t.close();
    });

    it('records and discovers every distinct link, and reads the whole page', async () => {
      assert.ok(page.html.length > 500_000 && page.html.length < 600_000, `${page.html.length} characters`);
      const options = crawlOptions({ url: site.url('/'), sitemaps: false, checkExternalLinks: false }, 1);
      const crawlId = await insertRunningCrawl(store, t.owner.workspaceId, options);
      const crawler = testCrawler(t.server.database, fetcher, { limits: { ...TEST_CRAWL_LIMITS, timeoutMs: 10_000 } });
      assert.equal(await crawler.run(crawlId, options, new AbortController().signal, () => {}), 1);

      const db = t.server.database.db;
      const urls = await db.selectFrom('crawl_urls').selectAll().where('crawl_id', '=', crawlId).execute();
      const home = urls.find((row) => row.url === site.url('/'));
      assert.ok(home);
      assert.equal(home.status_code, 200);
      assert.equal(home.fetch_error, null, 'the body was read whole');

      const links = await db
        .selectFrom('crawl_links')
        .select(['target_key', 'kind'])
        .where('crawl_id', '=', crawlId)
        .where('source_id', '=', home.id)
        .execute();
      const expected = [...page.internal, ...page.external];
      assert.equal(page.internal.size + page.external.size, 4_500);
      assert.deepEqual(
        links.map((link) => link.kind).filter((kind) => kind !== 'link'),
        [],
      );
      assert.deepEqual(new Set(links.map((link) => link.target_key)), new Set(expected.map(urlKey)));
      assert.equal(links.length, expected.length, 'each distinct link once');

      const byUrl = new Map(urls.map((row) => [row.url, row]));
      for (const url of page.internal) assert.deepEqual([byUrl.get(url)?.kind, byUrl.get(url)?.depth], ['page', 1], url);
      for (const url of page.external) assert.deepEqual([byUrl.get(url)?.kind, byUrl.get(url)?.depth], ['external', 1], url);
      assert.equal(urls.length, expected.length + 1, 'the page and what it links to, nothing else');

      const summary = JSON.parse(home.summary ?? '{}');
      assert.equal(summary.linkCount, LINKS);
      assert.equal(summary.internalLinkCount, page.internalLinks);
      assert.equal(summary.externalLinkCount, LINKS - page.internalLinks);
      assert.equal(summary.wordCount, 1 + LINKS * WORDS_PER_ITEM);
      assert.equal(home.word_count, 1 + LINKS * WORDS_PER_ITEM);
      assert.equal(summary.htmlBytes, Buffer.byteLength(page.html));

      const tooMany = await db
        .selectFrom('crawl_findings')
        .selectAll()
        .where('crawl_id', '=', crawlId)
        .where('rule_id', '=', 'links/too-many')
        .executeTakeFirst();
      assert.equal(tooMany?.count, page.internalLinks);

      const body = await db
        .selectFrom('crawl_page_bodies')
        .selectAll()
        .where('crawl_id', '=', crawlId)
        .where('url_id', '=', home.id)
        .executeTakeFirstOrThrow();
      assert.equal(zstdDecompressSync(body.html).toString('utf8'), page.html);
      // The visible text is kept up to its own cap, the start of the page's words.
      const words = ['Index', ...Array.from({ length: LINKS }, (_, i) => `Term ${i} said & explained in a few words`)].join(' ');
      assert.equal(zstdDecompressSync(body.text).toString('utf8'), words.slice(0, KEPT_TEXT_CHARS));
    });
  });
}
