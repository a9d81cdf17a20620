import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { after, before, describe, it } from 'node:test';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { PREVIEW_STARTED } from './preview-gate.ts';
import { nestedSitePages, selectorRule } from './test-rules.ts';

/**
 * Issue #22 point 3: a pack of many costly rules held a rule thread about 1.6 s a rule (its
 * page budget and a fresh thread), some 13 minutes for 500, and previews could fill the rule
 * threads. A preview ends at its deadline, and a workspace runs one preview at a time.
 */
const DEPTH = 200;
const PAGE_MS = 300;
const DEADLINE_MS = 2000;
/** Each is stopped at its page budget on the nested page: together they outlast the deadline. */
const COSTLY = 10;
const costly = Array.from({ length: COSTLY }, (_, index) => selectorRule(`content/costly-${index + 1}`, 'section div div div div'));
const heading = selectorRule('content/has-heading', 'h1');
const pack = { schema: 'loupe.rules/v1', name: 'many costly', rules: [...costly, heading] };

/** Resolves when a preview of this workspace has begun running its rules. */
function previewStarted(workspaceId: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      if ((message as { workspaceId: string }).workspaceId !== workspaceId) return;
      unsubscribe(PREVIEW_STARTED, listener);
      resolve();
    };
    subscribe(PREVIEW_STARTED, listener);
  });
}

for (const dialect of testDialects()) {
  describe(`a rule pack preview's deadline, one at a time per workspace (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    const workspaces: { as: { key: string; team: string }; projectId: string; workspace: TestWorkspace }[] = [];

    before(async () => {
      t = await startTestServer(dialect, {
        crawlAllowPrivate: true,
        ruleBudgets: { pageMs: PAGE_MS, previewMs: 10_000, previewDeadlineMs: DEADLINE_MS, reportMs: 60_000 },
      });
      site = await startTestSite({ pages: nestedSitePages(DEPTH) });
      for (let index = 0; index < 2; index += 1) {
        const workspace = await t.createWorkspace({ plan: 'pro' });
        const as = { key: workspace.key, team: workspace.workspaceId };
        const projectId = (
          await t.request('POST', '/api/v1/projects', {
            ...as,
            body: { name: 'Nested', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false } },
          })
        ).body.id;
        const crawl = await t.request('POST', `/api/v1/projects/${projectId}/crawls`, { ...as, body: {} });
        await followCrawlEvents(t, crawl.body.id, as);
        workspaces.push({ as, projectId, workspace });
      }
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const preview = (index: number) => {
      const { as, projectId } = workspaces[index]!;
      return t.request('POST', '/api/v1/rule-packs/preview', { ...as, body: { projectId, pack } });
    };
    const ruleOf = (body: { rules: { ruleId: string }[] }, id: string) => body.rules.find((rule) => rule.ruleId === id) as any;

    it('answers a preview of many costly rules at its deadline, each rule not done by then stopped and said so', async () => {
      const answer = await preview(0);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const stopped = ruleOf(answer.body, heading.id);
      assert.equal(stopped.error?.code, 'rule_timeout', JSON.stringify(stopped));
      assert.deepEqual([stopped.error.budget, stopped.error.budgetMs], ['deadline', DEADLINE_MS]);
      assert.match(stopped.error.message, /deadline of 2000 ms/);
      for (const rule of answer.body.rules) {
        assert.ok(rule.error, `${rule.ruleId} was not done by the deadline, yet has no error`);
        assert.ok(['page', 'deadline'].includes(rule.error.budget), JSON.stringify(rule.error));
        assert.ok(rule.pagesInScope <= rule.error.pagesEvaluated, 'its counts cover only the pages before it was stopped');
      }
    });

    it('answers a second preview of the workspace, a viewer\u2019s, with 429 and Retry-After while the first runs', async () => {
      const { as, projectId, workspace } = workspaces[0]!;
      const packId = (await t.request('POST', '/api/v1/rule-packs', { ...as, body: { name: 'many costly', pack } })).body.id;
      const viewer = await t.createMemberKey(workspace.workspaceId, 'viewer');
      const started = previewStarted(workspace.workspaceId);
      const first = preview(0);
      await started;
      const second = await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, {
        key: viewer,
        team: workspace.workspaceId,
        body: { projectId },
      });
      assert.equal(second.status, 429, JSON.stringify(second.body));
      assert.equal(second.body.code, 'rate_limited');
      assert.match(second.body.error, /already running/);
      const retryAfter = Number(second.headers.get('retry-after'));
      assert.ok(
        Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= DEADLINE_MS / 1000,
        `Retry-After: ${second.headers.get('retry-after')}`,
      );
      assert.equal((await first).status, 200);
      const third = await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, {
        key: viewer,
        team: workspace.workspaceId,
        body: { projectId },
      });
      assert.equal(third.status, 200, 'once the first has answered, the next runs');
    });

    it('runs a preview of another workspace while one runs', async () => {
      const started = previewStarted(workspaces[0]!.workspace.workspaceId);
      const first = preview(0);
      await started;
      const other = await preview(1);
      assert.equal(other.status, 200, JSON.stringify(other.body));
      assert.equal((await first).status, 200);
    });
  });
}
