import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../testing/fixture-sites.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

for (const dialect of testDialects()) {
  describe(`crawls API (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    before(async () => {
      const plan = { imageProjects: 3, imagesPerProject: 10, scheduledCrawls: false, customRulePacks: false };
      const plans = {
        free: { ...plan, pagesPerCrawl: 60, monthlyCredits: 1000 },
        tiny: { ...plan, pagesPerCrawl: 60, monthlyCredits: 50 },
      };
      t = await startTestServer(dialect, { plans, crawlAllowPrivate: true });
      site = await startTestSite(generatedSite(200), { record: false });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it('crawls a site, streams its progress to the end, and charges one credit per page', async () => {
      const before = (await t.request('GET', '/api/v1/team/credits')).body.balance;
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 40, concurrency: 4 } });
      assert.equal(started.status, 202);
      assert.deepEqual([started.body.maxPages, started.body.capped, started.body.creditsReserved], [40, false, 40]);
      const events = await followCrawlEvents(t, started.body.id);
      assert.equal(events.at(-1)?.status, 'completed');
      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.deepEqual([crawl.status, crawl.pagesCrawled, crawl.creditsCharged], ['completed', 40, 40]);
      assert.ok(crawl.finishedAt && crawl.startedAt);
      assert.equal((await t.request('GET', '/api/v1/team/credits')).body.balance, before - 40);
    });

    it('clamps maxPages to the plan cap and says so', async () => {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 5000 } });
      assert.equal(started.status, 202);
      assert.deepEqual([started.body.maxPages, started.body.capped], [60, true]);
      await followCrawlEvents(t, started.body.id);
    });

    it('audits one URL as a one-page crawl', async () => {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/pages/5'), mode: 'page' } });
      assert.equal(started.body.maxPages, 1);
      await followCrawlEvents(t, started.body.id);
      assert.equal((await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body.pagesCrawled, 1);
    });

    it('answers 402 with required and balance when the credits are not there, charging nothing', async () => {
      const other = await t.createWorkspace({ plan: 'tiny' });
      const answer = await t.request('POST', '/api/v1/crawls', {
        body: { url: site.url('/'), maxPages: 51 },
        key: other.key,
        team: other.workspaceId,
      });
      assert.equal(answer.status, 402);
      assert.deepEqual([answer.body.code, answer.body.required, answer.body.balance], ['insufficient_credits', 51, 50]);
      const credits = await t.request('GET', '/api/v1/team/credits', { key: other.key, team: other.workspaceId });
      assert.deepEqual([credits.body.balance, credits.body.reserved], [50, 0]);
      const crawls = await t.request('GET', '/api/v1/crawls?status=queued', { key: other.key, team: other.workspaceId });
      assert.deepEqual(crawls.body, []);
    });

    it('estimates what a start would reserve, starting nothing', async () => {
      const poor = await t.createWorkspace({ plan: 'tiny' });
      const options = { key: poor.key, team: poor.workspaceId };
      const estimate = (body: Record<string, unknown>) =>
        t.request('POST', '/api/v1/crawls/estimate', { body: { url: site.url('/'), ...body }, ...options });
      const cases: [Record<string, unknown>, unknown][] = [
        [{}, { maxPages: 60, capped: false, creditsPerPage: 1, credits: 60, balance: 50, sufficient: false }],
        [{ maxPages: 1 }, { maxPages: 1, capped: false, creditsPerPage: 1, credits: 1, balance: 50, sufficient: true }],
        [{ maxPages: 50 }, { maxPages: 50, capped: false, creditsPerPage: 1, credits: 50, balance: 50, sufficient: true }],
        [{ maxPages: 51 }, { maxPages: 51, capped: false, creditsPerPage: 1, credits: 51, balance: 50, sufficient: false }],
        [{ maxPages: 100_000 }, { maxPages: 60, capped: true, creditsPerPage: 1, credits: 60, balance: 50, sufficient: false }],
        [
          { mode: 'page', maxPages: 500 },
          { maxPages: 1, capped: false, creditsPerPage: 1, credits: 1, balance: 50, sufficient: true },
        ],
      ];
      for (const [body, expected] of cases) {
        const answer = await estimate(body);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual(answer.body, expected, JSON.stringify(body));
      }
      for (const body of [{ maxPages: 0 }, { maxPages: 100_001 }, { maxPages: '5' }, { bogus: 1 }, { url: undefined }]) {
        assert.equal((await estimate(body)).status, 400, JSON.stringify(body));
      }
      const credits = await t.request('GET', '/api/v1/team/credits', options);
      assert.deepEqual([credits.body.balance, credits.body.reserved], [50, 0]);
      assert.deepEqual((await t.request('GET', '/api/v1/crawls?status=queued', options)).body, []);
      const viewer = await t.createMemberKey(poor.workspaceId, 'viewer');
      assert.equal(
        (await t.request('POST', '/api/v1/crawls/estimate', { body: { url: site.url('/') }, key: viewer, team: poor.workspaceId })).status,
        403,
      );
    });

    it('refuses an unknown project the same way when estimating and when starting', async () => {
      const other = await t.createWorkspace({ plan: 'tiny' });
      for (const path of ['/api/v1/crawls/estimate', '/api/v1/crawls']) {
        const answer = await t.request('POST', path, {
          body: { url: site.url('/'), projectId: randomUUID() },
          key: other.key,
          team: other.workspaceId,
        });
        assert.deepEqual([answer.status, answer.body.code], [404, 'not_found'], path);
      }
      const credits = await t.request('GET', '/api/v1/team/credits', { key: other.key, team: other.workspaceId });
      assert.equal(credits.body.reserved, 0);
    });

    it('never overspends when starts race', async () => {
      const other = await t.createWorkspace({ plan: 'tiny' });
      const starts = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.request('POST', '/api/v1/crawls', {
            body: { url: site.url('/'), maxPages: 20, delayMs: 5 },
            key: other.key,
            team: other.workspaceId,
          }),
        ),
      );
      assert.equal(starts.filter((a) => a.status === 202).length, 2);
      assert.equal(starts.filter((a) => a.status === 402).length, 6);
      for (const started of starts.filter((a) => a.status === 202)) {
        await t.request('POST', `/api/v1/crawls/${started.body.id}/cancel`, { key: other.key, team: other.workspaceId });
      }
    });

    it('cancels a running crawl, charging the pages crawled so far', async () => {
      const started = await t.request('POST', '/api/v1/crawls', {
        body: { url: site.url('/'), maxPages: 60, delayMs: 100, concurrency: 1 },
      });
      const events = fetch(`${t.url}/api/v1/crawls/${started.body.id}/events`, {
        headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
      });
      const reader = (await events).body!.getReader();
      const decoder = new TextDecoder();
      let seen = '';
      // Until a whole progress event with a page crawled has arrived (its line ended).
      while (!/"progress","pagesCrawled":[1-9][^\n]*\n/.test(seen)) seen += decoder.decode((await reader.read()).value);
      // A progress event names the page fetched last.
      const progress = seen
        .split('\n')
        .filter((line) => /"progress","pagesCrawled":[1-9]/.test(line))
        .map((line) => JSON.parse(line.slice('data: '.length)));
      assert.ok(progress[0].lastUrl.startsWith(site.url('/')), JSON.stringify(progress[0]));
      const canceled = await t.request('POST', `/api/v1/crawls/${started.body.id}/cancel`);
      assert.equal(canceled.status, 200);
      while (!seen.includes('"canceled"')) {
        const chunk = await reader.read();
        if (chunk.done) break;
        seen += decoder.decode(chunk.value);
      }
      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      assert.equal(crawl.status, 'canceled');
      assert.ok(crawl.pagesCrawled > 0 && crawl.pagesCrawled < 60);
      assert.equal(crawl.creditsCharged, crawl.pagesCrawled);
      // A canceled crawl keeps a partial report of what it fetched.
      const report = (await t.request('GET', `/api/v1/reports/${crawl.reportId}`)).body;
      assert.equal(report.completeness, 'partial');
      assert.equal(report.pages.html, crawl.pagesCrawled);
      assert.ok(report.health.margin !== null, 'a partial score comes with its margin');
    });

    it('refuses a loopback target unless private crawling is allowed', async () => {
      const guarded = await startTestServer(dialect);
      try {
        const answer = await guarded.request('POST', '/api/v1/crawls', { body: { url: site.url('/') } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.url);
      } finally {
        await guarded.close();
      }
    });

    it('validates the request', async () => {
      for (const body of [
        {},
        { url: 'ftp://x' },
        { url: site.url('/'), maxPages: 0 },
        { url: site.url('/'), concurrency: 33 },
        { url: site.url('/'), bogus: 1 },
      ]) {
        const answer = await t.request('POST', '/api/v1/crawls', { body });
        assert.equal(answer.status, 400, JSON.stringify(body));
      }
    });

    it("hides another workspace's crawls and lets a viewer read but not start", async () => {
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), mode: 'page' } });
      const other = await t.createWorkspace();
      assert.equal((await t.request('GET', `/api/v1/crawls/${started.body.id}`, { key: other.key, team: other.workspaceId })).status, 404);
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      assert.equal((await t.request('GET', `/api/v1/crawls/${started.body.id}`, { key: viewer })).status, 200);
      assert.equal((await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/') }, key: viewer })).status, 403);
      await followCrawlEvents(t, started.body.id);
    });
  });
}
