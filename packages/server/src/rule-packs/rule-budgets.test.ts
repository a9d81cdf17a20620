import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crawlWithRulePack, followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { nestedSitePages, selectorRule } from './test-rules.ts';

/**
 * Issue #22 point 3: css-select tries every chain of ancestors for a descendant selector that
 * cannot match, so four descendant combinators over 200 nested divs take about a minute on
 * one page. No such rule may hold the server: it is stopped at its budget and said so.
 */
const DEPTH = 200;
const costly = selectorRule('content/costly-selector', 'section div div div div');
const heading = selectorRule('content/has-heading', 'h1');
const pack = { schema: 'loupe.rules/v1', name: 'costly', rules: [costly, heading] };
const PAGES = 4;

for (const dialect of testDialects()) {
  describe(`rule time budgets (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let pro: TestWorkspace;
    let as: { key: string; team: string };
    let projectId: string;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      pro = await t.createWorkspace({ plan: 'pro' });
      as = { key: pro.key, team: pro.workspaceId };
      site = await startTestSite({ pages: nestedSitePages(DEPTH) });
      projectId = (
        await t.request('POST', '/api/v1/projects', {
          ...as,
          body: { name: 'Nested', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false } },
        })
      ).body.id;
      const crawl = await t.request('POST', `/api/v1/projects/${projectId}/crawls`, { ...as, body: {} });
      await followCrawlEvents(t, crawl.body.id, as);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const ruleOf = (preview: { rules: { ruleId: string }[] }, id: string) => preview.rules.find((rule) => rule.ruleId === id) as any;

    it('answers a preview with the costly rule stopped at its page budget, the other rules decided on every page', async () => {
      const answer = await t.request('POST', '/api/v1/rule-packs/preview', { ...as, body: { projectId, pack } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.pagesEvaluated, PAGES);
      const stopped = ruleOf(answer.body, costly.id);
      assert.equal(stopped.error?.code, 'rule_timeout', JSON.stringify(stopped));
      assert.equal(stopped.error.budget, 'page');
      assert.equal(stopped.error.budgetMs, 1000);
      assert.equal(new URL(stopped.error.url).pathname, '/nested');
      assert.match(stopped.error.message, /took more than 1000 ms on this one page/);
      assert.ok(stopped.pagesInScope <= stopped.error.pagesEvaluated, 'it counts only pages before the one it was stopped on');
      const ordinary = ruleOf(answer.body, heading.id);
      assert.equal(ordinary.error, null);
      assert.deepEqual([ordinary.pagesInScope, ordinary.pagesFailing, ordinary.samples.length], [PAGES, PAGES, PAGES]);
    });

    it('answers /healthz while a preview runs the costly rule', async () => {
      let previewAnswered = false;
      const preview = t.request('POST', '/api/v1/rule-packs/preview', { ...as, body: { projectId, pack } }).finally(() => {
        previewAnswered = true;
      });
      const health = await t.request('GET', '/healthz', { key: null });
      assert.equal(health.status, 200);
      assert.equal(previewAnswered, false, '/healthz answered before the preview did');
      assert.equal(ruleOf((await preview).body, costly.id).error?.code, 'rule_timeout');
    });

    it('stops the costly rule of a saved pack a viewer re-runs, as for its author', async () => {
      const packId = (await t.request('POST', '/api/v1/rule-packs', { ...as, body: { name: 'costly', pack } })).body.id;
      const viewer = await t.createMemberKey(pro.workspaceId, 'viewer');
      const answer = await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, {
        key: viewer,
        team: pro.workspaceId,
        body: { projectId },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(ruleOf(answer.body, costly.id).error?.code, 'rule_timeout');
      assert.equal(ruleOf(answer.body, heading.id).pagesFailing, PAGES);
    });

    it('records the costly rule as a rule error of the crawl report, with the other rules\u2019 findings', async () => {
      const report = await crawlWithRulePack(t, as, { siteUrl: site.url('/'), pack: { ...pack, name: 'costly in crawls' } });
      assert.equal(report.ruleErrors.length, 1, JSON.stringify(report.ruleErrors));
      const [error] = report.ruleErrors;
      assert.deepEqual(
        [error.ruleId, error.code, error.budget, new URL(error.url).pathname],
        [costly.id, 'rule_timeout', 'page', '/nested'],
      );
      const headings = report.issues.find((issue: { ruleId: string }) => issue.ruleId === heading.id);
      assert.equal(headings?.pages, PAGES);
    });
  });
}
