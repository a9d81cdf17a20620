import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../testing/fixture-sites.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { Plans } from './plans.ts';

describe('the default plan', () => {
  const limits = {
    pagesPerCrawl: 10,
    monthlyCredits: 10,
    imageProjects: 1,
    imagesPerProject: 1,
    scheduledCrawls: false,
    customRulePacks: false,
  };

  it('is self-hosted unless told, with no credits to run out of and every feature on', () => {
    const plans = Plans.load();
    assert.equal(plans.defaultPlan(undefined), 'self-hosted');
    assert.deepEqual(plans.limits('self-hosted'), {
      pagesPerCrawl: 100_000,
      monthlyCredits: null,
      imageProjects: null,
      imagesPerProject: null,
      scheduledCrawls: true,
      customRulePacks: true,
    });
    assert.equal(plans.metered('self-hosted'), false);
    assert.equal(plans.metered('free'), true);
  });

  it('is the plan LOUPE_DEFAULT_PLAN names, when the table has it', () => {
    assert.equal(Plans.load().defaultPlan('free'), 'free');
    assert.equal(Plans.load().defaultPlan('business'), 'business');
  });

  it('is free in an operator plan table without self-hosted', () => {
    assert.equal(new Plans({ free: limits, gold: limits }).defaultPlan(undefined), 'free');
  });

  it('refuses a name the table lacks, listing the ones it has', () => {
    for (const name of ['gold', 'Free', '', 'constructor', '__proto__']) {
      assert.throws(
        () => Plans.load().defaultPlan(name),
        /^Error: LOUPE_DEFAULT_PLAN: no plan ".*" in the plan table; choose one of free, pro, business, self-hosted\.$/,
        name,
      );
    }
  });
});

for (const dialect of testDialects()) {
  describe(`the self-hosted plan (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    before(async () => {
      t = await startTestServer(dialect, { defaultPlan: 'self-hosted', crawlAllowPrivate: true });
      site = await startTestSite(generatedSite(12), { record: false });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it('is the first workspace plan, unmetered', async () => {
      const team = (await t.request('GET', '/api/v1/team')).body;
      assert.equal(team.plan, 'self-hosted');
      assert.deepEqual([team.limits.monthlyCredits, team.credits.monthlyAllowance, team.limits.imageProjects], [null, null, null]);
      const credits = (await t.request('GET', '/api/v1/team/credits')).body;
      assert.deepEqual(credits, { balance: 0, reserved: 0, plan: 'self-hosted', pagesPerCrawl: 100_000, monthlyCredits: null });
      const plans = (await t.request('GET', '/api/v1/plans')).body;
      assert.deepEqual(
        plans.map((p: { name: string }) => p.name),
        ['free', 'pro', 'business', 'self-hosted'],
      );
    });

    it('lets an owner move between plans, back to self-hosted included, where it is what new workspaces get', async () => {
      const ws = await t.createWorkspace({ plan: 'free' });
      const options = { key: ws.key, team: ws.workspaceId };
      const moved = await t.request('PATCH', '/api/v1/team', { body: { plan: 'self-hosted' }, ...options });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.plan, 'self-hosted');
      const back = await t.request('PATCH', '/api/v1/team', { body: { plan: 'pro' }, ...options });
      assert.equal(back.body.plan, 'pro');
    });

    it('estimates the largest crawl as sufficient with no credits at all', async () => {
      const answer = await t.request('POST', '/api/v1/crawls/estimate', { body: { url: site.url('/'), maxPages: 100_000 } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body, {
        maxPages: 100_000,
        capped: false,
        creditsPerPage: 1,
        credits: 100_000,
        balance: 0,
        sufficient: true,
      });
    });

    it('starts the largest crawl without 402, reserves and charges nothing, and counts its pages', async () => {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 100_000 } });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      assert.deepEqual([started.body.maxPages, started.body.capped, started.body.creditsReserved], [100_000, false, 0]);
      const events = await followCrawlEvents(t, started.body.id);
      assert.equal(events.at(-1)?.status, 'completed');
      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.ok(crawl.pagesCrawled >= 12, `${crawl.pagesCrawled} pages`);
      assert.equal(crawl.creditsCharged, 0);
      const credits = (await t.request('GET', '/api/v1/team/credits')).body;
      assert.deepEqual([credits.balance, credits.reserved], [0, 0]);
      assert.deepEqual((await t.request('GET', '/api/v1/team/credits/ledger')).body, []);
    });

    it('gets no monthly allowance, while a free workspace beside it still does', async () => {
      const free = await t.createWorkspace({ plan: 'free' });
      const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 2));
      const granted = await t.server.allowance.tick(nextMonth);
      assert.equal(
        granted.some((g) => g.workspaceId === t.owner.workspaceId && g.granted > 0),
        false,
      );
      const credits = (await t.request('GET', '/api/v1/team/credits')).body;
      assert.equal(credits.balance, 0);
      const freeCredits = await t.request('GET', '/api/v1/team/credits', { key: free.key, team: free.workspaceId });
      assert.equal(freeCredits.body.balance, 1000);
    });

    it('leaves the free plan its cap and its 402', async () => {
      const free = await t.createWorkspace({ plan: 'free' });
      const options = { key: free.key, team: free.workspaceId };
      const estimate = await t.request('POST', '/api/v1/crawls/estimate', { body: { url: site.url('/'), maxPages: 100_000 }, ...options });
      assert.deepEqual(estimate.body, { maxPages: 500, capped: true, creditsPerPage: 1, credits: 500, balance: 1000, sufficient: true });
      // Two crawls of 500 hold the whole balance: the third is refused.
      const started = [];
      for (let i = 0; i < 2; i++) {
        const crawl = await t.request('POST', '/api/v1/crawls', {
          body: { url: site.url('/'), maxPages: 500, delayMs: 60_000 },
          ...options,
        });
        assert.equal(crawl.status, 202, JSON.stringify(crawl.body));
        started.push(crawl.body.id);
      }
      const refused = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 1 }, ...options });
      assert.equal(refused.status, 402);
      assert.deepEqual([refused.body.code, refused.body.required, refused.body.balance], ['insufficient_credits', 1, 0]);
      for (const id of started) await t.request('POST', `/api/v1/crawls/${id}/cancel`, options);
    });
  });
}
