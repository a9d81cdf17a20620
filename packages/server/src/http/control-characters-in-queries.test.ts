import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../testing/fixture-sites.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

/** PostgreSQL cannot compare text holding a NUL: the fuzz pass found these answering 500 there. */
for (const dialect of testDialects()) {
  describe(`control characters in list filters (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite(generatedSite(2), { record: false });
    });
    after(async () => {
      await t.close();
      await site.close();
    });

    it('refuses a NUL in the path prefix of an image listing with 400', async () => {
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Listed' } });
      const answer = await t.request('GET', `/api/images/projects/${project.body.id}/images?prefix=blog%00`);
      assert.equal(answer.status, 400);
      assert.deepEqual(Object.keys(answer.body.details.fieldErrors), ['prefix']);
    });

    it("refuses a rule id that is not one (a NUL) in a report's page filter with 400", async () => {
      const report = await crawlToReport(t, { url: site.url('/'), mode: 'page' });
      const answer = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=titles%00`);
      assert.equal(answer.status, 400);
      assert.deepEqual(Object.keys(answer.body.details.fieldErrors), ['ruleId']);
      const fine = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=titles/missing`);
      assert.equal(fine.status, 200);
    });
  });
}
