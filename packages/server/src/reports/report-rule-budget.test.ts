import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nestedDivs, selectorRule } from '../rule-packs/test-rules.ts';
import { htmlPage } from '../testing/html-page.ts';
import { crawlWithRulePack } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

/**
 * Issue #22 point 3: a report build bounded a custom rule per page only, so a rule just under
 * its page budget on every page held a rule thread as long as the crawl had pages. Each rule
 * has a budget over the whole build too. Here `section div div div` takes some 0.13 s on
 * each page of 150 nested divs (0.03 s at 100, too close to the budget in all): well under
 * the page budget, and three times the report's in all.
 */
const DEPTH = 150;
const NESTED = 12;
const REPORT_MS = 500;
const slow = selectorRule('content/slow-selector', 'section div div div');
const heading = selectorRule('content/has-heading', 'h1');
const nestedPaths = Array.from({ length: NESTED }, (_, index) => `/nested-${index + 1}`);

for (const dialect of testDialects()) {
  describe(`a custom rule's budget over a whole report build (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;

    before(async () => {
      t = await startTestServer(dialect, {
        crawlAllowPrivate: true,
        ruleBudgets: { pageMs: 10_000, previewMs: 10_000, previewDeadlineMs: 30_000, reportMs: REPORT_MS },
      });
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', links: nestedPaths }),
          ...Object.fromEntries(nestedPaths.map((path) => [path, htmlPage({ path, body: nestedDivs(DEPTH), links: ['/'] })])),
        },
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it('stops a rule under its page budget on every page once it has spent its budget for the report, and reports it', async () => {
      const pro = await t.createWorkspace({ plan: 'pro' });
      const as = { key: pro.key, team: pro.workspaceId };
      const report = await crawlWithRulePack(t, as, {
        siteUrl: site.url('/'),
        pack: { schema: 'loupe.rules/v1', name: 'slow', rules: [slow, heading] },
      });
      assert.equal(report.ruleErrors.length, 1, JSON.stringify(report.ruleErrors));
      const [error] = report.ruleErrors;
      assert.deepEqual([error.ruleId, error.code, error.budget, error.budgetMs], [slow.id, 'rule_timeout', 'report', REPORT_MS]);
      assert.ok(error.pagesEvaluated < NESTED + 1, 'it was not run on every page');
      assert.match(error.message, /more than 500 ms over this report's pages/);
      const headings = report.issues.find((issue: { ruleId: string }) => issue.ruleId === heading.id);
      assert.equal(headings?.pages, NESTED + 1, 'the other rule is decided on every page');
    });
  });
}
