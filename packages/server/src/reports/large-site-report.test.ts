import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../testing/fixture-sites.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const PAGES = 10_000;

for (const dialect of testDialects()) {
  describe(`a ${PAGES}-page site (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    const definition = generatedSite(PAGES);
    const { defects } = definition.known;

    before(async () => {
      const plan = { imageProjects: 1, imagesPerProject: 1, scheduledCrawls: false, customRulePacks: false };
      t = await startTestServer(dialect, {
        plans: { free: { ...plan, pagesPerCrawl: 20_000, monthlyCredits: 20_000 } },
        crawlAllowPrivate: true,
      });
      site = await startTestSite(definition, { record: false });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    // A 10,000-page crawl takes some 76 s on PostgreSQL alone on two cores; beside another test
    // file (npm test runs two at once) it went past the suite's 120 s once.
    it('is crawled to the end, each page once, and its planted defects are found on their pages', { timeout: 300_000 }, async () => {
      const report = await crawlToReport(t, { url: site.url('/'), maxPages: 20_000, concurrency: 16 });
      assert.equal(report.completeness, 'complete');
      // The pages, the orphan, and the targets of the broken, failing and redirected links.
      assert.equal(report.pages.html, PAGES + 1);
      const firing = async (ruleId: string) => {
        const answer = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=${ruleId}&limit=100`);
        return answer.body.map((page: { url: string }) => new URL(page.url).pathname).sort();
      };
      assert.deepEqual(await firing('links/broken-internal'), [defects.brokenLink.page, defects.serverErrorLink.page].sort());
      assert.deepEqual(await firing('redirects/linked-redirect'), [defects.redirectedLink.page]);
      assert.deepEqual(await firing('titles/missing'), [defects.missingTitle]);
      assert.deepEqual(await firing('titles/duplicate'), [...defects.duplicateTitle]);
      // The generated description follows the title, so the pages sharing a title share it too.
      assert.deepEqual(await firing('descriptions/duplicate'), [...defects.duplicateTitle, ...defects.duplicateDescription].sort());
      assert.deepEqual(await firing('images/alt-missing'), [defects.imageWithoutAlt.page]);
      assert.deepEqual(await firing('images/broken'), [defects.brokenImage.page]);
      assert.deepEqual(await firing('content/thin'), [defects.thin]);
      assert.deepEqual(await firing('indexability/noindex'), [defects.noindex]);
      assert.deepEqual(await firing('canonical/canonicalised'), [defects.canonicalElsewhere.page]);
      assert.deepEqual(await firing('links/orphan'), [defects.orphan]);
      const nonIndexable = report.issues.find((issue: { ruleId: string }) => issue.ruleId === 'sitemaps/non-indexable-url');
      assert.equal(nonIndexable?.instances, 2, 'the noindex page and the canonicalised one are listed');
      // Every page is served over http://, an error on each (security/not-https): about 50, never more.
      assert.ok(report.health.score > 0 && report.health.score <= 50, `score ${report.health.score}`);
    });
  });
}
