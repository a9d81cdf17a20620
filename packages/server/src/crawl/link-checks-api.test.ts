import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport, followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const DEAD_LINKS = 12;

for (const dialect of testDialects()) {
  describe(`checkExternalLinks and the report's link checks (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let other: TestSite;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
      other = await startTestSite({ pages: { '/fine': htmlPage({ path: '/fine', title: 'A page of another site that answers' }) } });
      const links = [
        ...Array.from({ length: DEAD_LINKS }, (_, n) => `http://gone.invalid/page-${n}`),
        `http://other.test:${new URL(other.origin).port}/fine`,
      ];
      site = await startTestSite({ pages: { '/': htmlPage({ path: '/', title: 'A home page linking to other sites', links }) } });
    });
    after(async () => {
      await Promise.all([site.close(), other.close()]);
      await t.close();
    });

    const brokenExternal = (report: { issues: { ruleId: string; instances: number }[] }) =>
      report.issues.find((issue) => issue.ruleId === 'links/broken-external')?.instances ?? 0;

    it('checks links to other sites by default, and counts them in the report', async () => {
      other.requests.clear();
      const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false });
      assert.deepEqual(report.linkChecks, { checked: DEAD_LINKS + 1, notChecked: { overCap: 0, timeBudget: 0, turnedOff: 0 } });
      assert.equal(brokenExternal(report), DEAD_LINKS);
      assert.equal(other.requests.count('/fine'), 1);
    });

    it('asks no other site with checkExternalLinks false, and reports the links as not checked, not broken', async () => {
      other.requests.clear();
      const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false, checkExternalLinks: false });
      assert.deepEqual(report.linkChecks, { checked: 0, notChecked: { overCap: 0, timeBudget: 0, turnedOff: DEAD_LINKS + 1 } });
      assert.equal(brokenExternal(report), 0);
      assert.equal(other.requests.total, 0);
    });

    it("takes a project's default, which a crawl of the project may override", async () => {
      const project = await t.request('POST', '/api/v1/projects', {
        body: { name: 'No external checks', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false, checkExternalLinks: false } },
      });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      assert.equal(project.body.crawlDefaults.checkExternalLinks, false);
      const reportOf = async (body: object) => {
        const started = await t.request('POST', `/api/v1/projects/${project.body.id}/crawls`, { body });
        assert.equal(started.status, 202, JSON.stringify(started.body));
        const reportId = (await followCrawlEvents(t, started.body.id)).at(-1)?.reportId;
        return (await t.request('GET', `/api/v1/reports/${reportId}`)).body;
      };
      assert.equal((await reportOf({})).linkChecks.notChecked.turnedOff, DEAD_LINKS + 1);
      assert.equal((await reportOf({ checkExternalLinks: true })).linkChecks.checked, DEAD_LINKS + 1);
    });

    for (const value of ['yes', 1, null]) {
      it(`refuses checkExternalLinks ${JSON.stringify(value)} on a crawl and in project defaults`, async () => {
        const crawl = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), checkExternalLinks: value } });
        assert.equal(crawl.status, 400);
        assert.equal(crawl.body.code, 'validation_failed');
        const project = await t.request('POST', '/api/v1/projects', {
          body: { name: 'Bad default', siteUrl: site.url('/'), crawlDefaults: { checkExternalLinks: value } },
        });
        assert.equal(project.status, 400);
        assert.equal(project.body.code, 'validation_failed');
      });
    }
  });
}
