import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { htmlPage } from '../testing/html-page.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const placeholderRule = {
  id: 'content/placeholder-copy',
  title: 'Placeholder copy left on a live page',
  category: 'content',
  severity: 'error',
  when: { type: 'text', source: 'visible', str: { matches: '\\blorem ipsum\\b' } },
  message: 'Placeholder “{{match}}” on {{path}}',
  help: { why: 'Template text is indexed and seen by visitors.', fix: 'Replace it with real copy.' },
};
const shallowRule = {
  id: 'links/few-inlinks',
  title: 'Linked from fewer than two pages',
  category: 'links',
  severity: 'notice',
  scope: { include: ['/docs/**'] },
  when: { type: 'metric', metric: 'inlinks', cmp: { op: 'lt', value: 2 } },
  message: '{{path}} has {{value}} inlinks',
};

for (const dialect of testDialects()) {
  describe(`custom rule packs in reports (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let pro: TestWorkspace;
    let as: { key: string; team: string };

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      pro = await t.createWorkspace({ plan: 'pro' });
      as = { key: pro.key, team: pro.workspaceId };
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', links: ['/docs/a', '/docs/b', '/draft'] }),
          '/docs/a': htmlPage({ path: '/docs/a', links: ['/', '/docs/b'] }),
          '/docs/b': htmlPage({ path: '/docs/b', links: ['/'] }),
          '/draft': htmlPage({ path: '/draft', body: '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>', links: ['/'] }),
        },
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    async function savePack(rules: unknown[]): Promise<string> {
      const answer = await t.request('POST', '/api/v1/rule-packs', {
        ...as,
        body: { name: `pack-${Math.random()}`, pack: { schema: 'loupe.rules/v1', name: 'house rules', rules } },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id;
    }

    async function crawlProject(rulePackIds: string[]) {
      const project = await t.request('POST', '/api/v1/projects', {
        ...as,
        body: { name: 'Site', siteUrl: site.url('/'), rulePackIds, crawlDefaults: { sitemaps: false } },
      });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      const started = await t.request('POST', `/api/v1/projects/${project.body.id}/crawls`, { ...as, body: {} });
      assert.equal(started.status, 202);
      const events = await followCrawlEvents(t, started.body.id, as);
      const reportId = events.at(-1)?.reportId;
      assert.ok(reportId);
      return {
        projectId: project.body.id as string,
        crawlId: started.body.id as string,
        report: (await t.request('GET', `/api/v1/reports/${reportId}`, as)).body,
      };
    }

    it("runs the attached packs' rules in the crawl and reports their findings like built-in checks", async () => {
      const { report } = await crawlProject([await savePack([placeholderRule, shallowRule])]);
      const placeholder = report.issues.find((issue: { ruleId: string }) => issue.ruleId === 'content/placeholder-copy');
      assert.ok(placeholder, JSON.stringify(report.issues.map((i: { ruleId: string }) => i.ruleId)));
      assert.equal(placeholder.title, 'Placeholder copy left on a live page');
      assert.equal(placeholder.severity, 'error');
      assert.equal(placeholder.fix, 'Replace it with real copy.');
      assert.equal(placeholder.pages, 1);
      assert.equal(new URL(placeholder.examples[0].url).pathname, '/draft');
      assert.equal(placeholder.examples[0].detail, 'Placeholder “Lorem ipsum” on /draft');
      assert.ok(placeholder.lostPoints > 0, 'an error-level custom rule costs points');

      // Inlinks are known only once every page is crawled: /docs/a has one (from /), /docs/b two.
      const few = report.issues.find((issue: { ruleId: string }) => issue.ruleId === 'links/few-inlinks');
      assert.ok(few);
      const fewPaths = few.examples.map((e: { url: string }) => new URL(e.url).pathname).sort();
      assert.deepEqual(fewPaths, ['/docs/a']);
    });

    it('shows custom findings with their title and fix in the page detail and the export', async () => {
      const { report } = await crawlProject([await savePack([placeholderRule])]);
      const pageId = report.issues.find((issue: { ruleId: string }) => issue.ruleId === 'content/placeholder-copy').examples[0].pageId;
      const detail = await t.request('GET', `/api/v1/reports/${report.id}/pages/${pageId}`, as);
      const finding = detail.body.findings.find((f: { ruleId: string }) => f.ruleId === 'content/placeholder-copy');
      assert.equal(finding.title, 'Placeholder copy left on a live page');
      assert.equal(finding.category, 'content');
      assert.equal(finding.fix, 'Replace it with real copy.');
      const csv = await t.request('GET', `/api/v1/reports/${report.id}/export?format=csv`, as);
      assert.match(csv.body, /\/draft,200,content\/placeholder-copy,content,error,Placeholder copy left on a live page,1,/);
    });

    it('runs no custom rule when no pack is attached', async () => {
      const { report } = await crawlProject([]);
      assert.equal(
        report.issues.some((issue: { ruleId: string }) => issue.ruleId === 'content/placeholder-copy'),
        false,
      );
    });

    it('leaves the packs out of crawls of a workspace whose plan lost them', async () => {
      const packId = await savePack([placeholderRule]);
      const project = await t.request('POST', '/api/v1/projects', {
        ...as,
        body: { name: 'Site', siteUrl: site.url('/'), rulePackIds: [packId] },
      });
      await t.server.database.db.updateTable('workspaces').set({ plan: 'free' }).where('id', '=', pro.workspaceId).execute();
      try {
        const started = await t.request('POST', `/api/v1/projects/${project.body.id}/crawls`, { ...as, body: { sitemaps: false } });
        const events = await followCrawlEvents(t, started.body.id, as);
        const report = (await t.request('GET', `/api/v1/reports/${events.at(-1)?.reportId}`, as)).body;
        assert.equal(
          report.issues.some((issue: { ruleId: string }) => issue.ruleId === 'content/placeholder-copy'),
          false,
        );
      } finally {
        await t.server.database.db.updateTable('workspaces').set({ plan: 'pro' }).where('id', '=', pro.workspaceId).execute();
      }
    });
  });
}
