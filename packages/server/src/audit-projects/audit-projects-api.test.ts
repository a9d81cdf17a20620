import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CreditStore } from '../credits/credit-store.ts';
import { htmlPage } from '../testing/html-page.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const PROJECTS = '/api/v1/projects';

for (const dialect of testDialects()) {
  describe(`audit projects (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let other: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      other = await t.createWorkspace();
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', links: ['/a', '/b'] }),
          '/a': htmlPage({ path: '/a', links: ['/'] }),
          '/b': htmlPage({ path: '/b', links: ['/'] }),
        },
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    async function create(body: Record<string, unknown> = {}, options: { key?: string; team?: string } = {}) {
      const answer = await t.request('POST', PROJECTS, { body: { name: 'Docs', siteUrl: site.url('/'), ...body }, ...options });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    /** Starts a project crawl and waits for its end; answers the crawl as it ended. */
    async function crawlProject(projectId: string, body: Record<string, unknown> = {}) {
      const started = await t.request('POST', `${PROJECTS}/${projectId}/crawls`, { body });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      await followCrawlEvents(t, started.body.id);
      return (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
    }

    describe('creating and reading', () => {
      it('answers 201 with the project, its defaults and no report yet', async () => {
        const project = await create({ crawlDefaults: { maxPages: 5, respectRobots: false } });
        assert.equal(project.name, 'Docs');
        assert.equal(project.siteUrl, site.url('/'));
        assert.deepEqual(project.crawlDefaults, { maxPages: 5, respectRobots: false });
        assert.deepEqual(project.rulePackIds, []);
        assert.equal(project.latestReport, null);
        const read = await t.request('GET', `${PROJECTS}/${project.id}`);
        assert.deepEqual(read.body, project);
      });

      it('keeps only the defaults that were given, not the server defaults', async () => {
        const project = await create();
        assert.deepEqual(project.crawlDefaults, {});
      });

      it('accepts a name of 1 and of 100 characters and refuses 0 and 101', async () => {
        assert.equal((await t.request('POST', PROJECTS, { body: { name: 'x', siteUrl: site.url('/') } })).status, 201);
        assert.equal((await t.request('POST', PROJECTS, { body: { name: 'x'.repeat(100), siteUrl: site.url('/') } })).status, 201);
        for (const name of ['', '   ', 'x'.repeat(101), 42]) {
          const answer = await t.request('POST', PROJECTS, { body: { name, siteUrl: site.url('/') } });
          assert.equal(answer.status, 400);
          assert.equal(answer.body.code, 'validation_failed');
          assert.ok(answer.body.details.fieldErrors.name, JSON.stringify(answer.body));
        }
      });

      it('refuses a missing or non-web site URL, an unknown field and bad crawl defaults, naming the field', async () => {
        const cases: [Record<string, unknown>, string][] = [
          [{ name: 'x' }, 'siteUrl'],
          [{ name: 'x', siteUrl: 'ftp://example.com/' }, 'siteUrl'],
          [{ name: 'x', siteUrl: 'not a url' }, 'siteUrl'],
          [{ name: 'x', siteUrl: site.url('/'), color: 'red' }, 'color'],
          [{ name: 'x', siteUrl: site.url('/'), crawlDefaults: { maxPages: 0 } }, 'crawlDefaults.maxPages'],
          [{ name: 'x', siteUrl: site.url('/'), crawlDefaults: { maxPages: 100_001 } }, 'crawlDefaults.maxPages'],
          [{ name: 'x', siteUrl: site.url('/'), crawlDefaults: { url: site.url('/') } }, 'crawlDefaults.url'],
          [{ name: 'x', siteUrl: site.url('/'), crawlDefaults: { concurrency: 33 } }, 'crawlDefaults.concurrency'],
          [{ name: 'x', siteUrl: site.url('/'), rulePackIds: ['nope'] }, 'rulePackIds.0'],
        ];
        for (const [body, field] of cases) {
          const answer = await t.request('POST', PROJECTS, { body });
          assert.equal(answer.status, 400, JSON.stringify(body));
          assert.ok(answer.body.details.fieldErrors[field], `${field}: ${JSON.stringify(answer.body)}`);
        }
      });

      it('answers 404 for a rule pack that is not in the workspace', async () => {
        const answer = await t.request('POST', PROJECTS, { body: { name: 'x', siteUrl: site.url('/'), rulePackIds: [randomUUID()] } });
        assert.equal(answer.status, 404);
      });

      it('attaches rule packs of the workspace, and lets go of one when it is deleted', async () => {
        const pro = await t.createWorkspace({ plan: 'pro' });
        const as = { key: pro.key, team: pro.workspaceId };
        const pack = { schema: 'loupe.rules/v1', name: 'p', rules: [] };
        const [first, second] = await Promise.all(
          ['one', 'two'].map(
            async (name) => (await t.request('POST', '/api/v1/rule-packs', { ...as, body: { name, pack } })).body.id as string,
          ),
        );
        const project = await create({ rulePackIds: [first, second] }, as);
        assert.deepEqual(project.rulePackIds, [first, second]);
        assert.equal((await t.request('DELETE', `/api/v1/rule-packs/${first}`, as)).status, 200);
        assert.deepEqual((await t.request('GET', `${PROJECTS}/${project.id}`, as)).body.rulePackIds, [second]);
        // Another workspace's pack cannot be attached.
        assert.equal((await t.request('PATCH', `${PROJECTS}/${project.id}`, { ...as, body: { rulePackIds: [second] } })).status, 200);
        const foreign = await create();
        assert.equal((await t.request('PATCH', `${PROJECTS}/${foreign.id}`, { body: { rulePackIds: [second] } })).status, 404);
      });

      it('lists projects oldest first, in pages announced by the Link header', async () => {
        const workspace = await t.createWorkspace();
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await create({ name: `P${i}` }, { key: workspace.key, team: workspace.workspaceId })).id);
        const first = await t.request('GET', `${PROJECTS}?limit=2`, { key: workspace.key, team: workspace.workspaceId });
        assert.deepEqual(
          first.body.map((p: { id: string }) => p.id),
          ids.slice(0, 2),
        );
        const next = nextPage(first);
        assert.ok(next);
        const second = await t.request('GET', next, { key: workspace.key, team: workspace.workspaceId });
        assert.deepEqual(
          second.body.map((p: { id: string }) => p.id),
          ids.slice(2),
        );
        assert.equal(nextPage(second), undefined);
      });
    });

    describe('changing and deleting', () => {
      it('changes the name and replaces the crawl defaults whole', async () => {
        const project = await create({ crawlDefaults: { maxPages: 5, delayMs: 10 } });
        const answer = await t.request('PATCH', `${PROJECTS}/${project.id}`, { body: { name: 'Renamed', crawlDefaults: { maxDepth: 2 } } });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, 'Renamed');
        assert.deepEqual(answer.body.crawlDefaults, { maxDepth: 2 });
        assert.ok(answer.body.updatedAt >= project.updatedAt);
      });

      it('refuses an empty change and an unknown field', async () => {
        const project = await create();
        assert.equal((await t.request('PATCH', `${PROJECTS}/${project.id}`, { body: {} })).status, 400);
        assert.equal((await t.request('PATCH', `${PROJECTS}/${project.id}`, { body: { slug: 'x' } })).status, 400);
      });

      it('deletes a project: it is gone, its reports stay unfiled', async () => {
        const project = await create({ crawlDefaults: { maxPages: 1 } });
        const crawl = await crawlProject(project.id);
        const deleted = await t.request('DELETE', `${PROJECTS}/${project.id}`);
        assert.deepEqual(deleted.body, { deleted: true });
        assert.equal((await t.request('GET', `${PROJECTS}/${project.id}`)).status, 404);
        const report = await t.request('GET', `/api/v1/reports/${crawl.reportId}`);
        assert.equal(report.status, 200);
        assert.equal(report.body.projectId, null);
        assert.equal((await t.request('DELETE', `${PROJECTS}/${project.id}`)).status, 404);
      });
    });

    describe('crawls, reports and trend', () => {
      it("crawls the project's site with its defaults and files the report under it", async () => {
        const project = await create({ crawlDefaults: { maxPages: 2 } });
        const crawl = await crawlProject(project.id);
        assert.equal(crawl.projectId, project.id);
        assert.equal(crawl.url, site.url('/'));
        assert.equal(crawl.maxPages, 2);
        assert.equal(crawl.status, 'completed');
        assert.equal(crawl.pagesCrawled, 2);
        const reports = await t.request('GET', `${PROJECTS}/${project.id}/reports`);
        assert.deepEqual(
          reports.body.map((r: { id: string }) => r.id),
          [crawl.reportId],
        );
        const read = await t.request('GET', `${PROJECTS}/${project.id}`);
        assert.equal(read.body.latestReport.id, crawl.reportId);
      });

      it('lets the request override a default, field by field', async () => {
        const project = await create({ crawlDefaults: { maxPages: 2, delayMs: 0 } });
        const crawl = await crawlProject(project.id, { maxPages: 1, url: site.url('/a') });
        assert.equal(crawl.maxPages, 1);
        assert.equal(crawl.url, site.url('/a'));
      });

      it('refuses a crawl whose defaults and overrides are each valid but not together', async () => {
        const project = await create({
          crawlDefaults: { headers: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-h${i}`, 'v'])) },
        });
        const answer = await t.request('POST', `${PROJECTS}/${project.id}/crawls`, { body: { url: 'ftp://x/' } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.url);
      });

      it('answers 402 and reserves nothing when the project crawl exceeds the credits', async () => {
        const poor = await t.createWorkspace();
        const options = { key: poor.key, team: poor.workspaceId };
        const project = await create({ crawlDefaults: { maxPages: 500 } }, options);
        // Hold all but 200 of the free plan's 1,000 credits, as a running crawl would.
        assert.ok(await new CreditStore(t.server.database).reserve(poor.workspaceId, 800, randomUUID()));
        const answer = await t.request('POST', `${PROJECTS}/${project.id}/crawls`, { body: {}, ...options });
        assert.equal(answer.status, 402);
        assert.equal(answer.body.code, 'insufficient_credits');
        assert.equal(answer.body.required, 500);
        assert.equal(answer.body.balance, 200);
        assert.equal((await t.request('GET', `${PROJECTS}/${project.id}/crawls`, options)).body.length, 0);
        const fits = await t.request('POST', `${PROJECTS}/${project.id}/crawls`, { body: { maxPages: 1, mode: 'page' }, ...options });
        assert.equal(fits.status, 202);
        await followCrawlEvents(t, fits.body.id, options);
      });

      it("estimates a project crawl from its defaults under the fields sent, and hides another workspace's project", async () => {
        const project = await create({ crawlDefaults: { maxPages: 7 } });
        const estimate = (body: Record<string, unknown>, options: { key?: string; team?: string } = {}) =>
          t.request('POST', `${PROJECTS}/${project.id}/crawls/estimate`, { body, ...options });
        const fromDefaults = await estimate({});
        assert.equal(fromDefaults.status, 200);
        assert.deepEqual([fromDefaults.body.maxPages, fromDefaults.body.capped, fromDefaults.body.sufficient], [7, false, true]);
        assert.equal((await estimate({ maxPages: 3 })).body.maxPages, 3);
        assert.equal((await estimate({ mode: 'page' })).body.maxPages, 1);
        assert.deepEqual(
          [(await estimate({ maxPages: 100_000 })).body.maxPages, (await estimate({ maxPages: 100_000 })).body.capped],
          [500, true],
        );
        assert.equal((await estimate({ maxPages: 0 })).status, 400);
        assert.equal((await estimate({}, { key: other.key, team: other.workspaceId })).status, 404);
        assert.equal((await t.request('GET', `${PROJECTS}/${project.id}/crawls`)).body.length, 0, 'nothing started');
      });

      it('lists the project crawls newest first, by state', async () => {
        const project = await create({ crawlDefaults: { maxPages: 1 } });
        const first = await crawlProject(project.id);
        const second = await crawlProject(project.id);
        const all = await t.request('GET', `${PROJECTS}/${project.id}/crawls`);
        assert.deepEqual(
          all.body.map((c: { id: string }) => c.id),
          [second.id, first.id],
        );
        const running = await t.request('GET', `${PROJECTS}/${project.id}/crawls?status=running`);
        assert.deepEqual(running.body, []);
      });

      it('answers the trend oldest first, limited to the newest points', async () => {
        const project = await create({ crawlDefaults: { maxPages: 3 } });
        const crawls = [
          await crawlProject(project.id),
          await crawlProject(project.id, { maxPages: 1 }),
          await crawlProject(project.id, { maxPages: 2 }),
        ];
        const trend = await t.request('GET', `${PROJECTS}/${project.id}/trend`);
        assert.equal(trend.status, 200);
        assert.equal(trend.body.projectId, project.id);
        assert.deepEqual(
          trend.body.points.map((p: { reportId: string }) => p.reportId),
          crawls.map((c) => c.reportId),
        );
        assert.deepEqual(
          trend.body.points.map((p: { pages: number }) => p.pages),
          [3, 1, 2],
        );
        for (const point of trend.body.points) assert.equal(typeof point.score, 'number');
        const newest = await t.request('GET', `${PROJECTS}/${project.id}/trend?points=2`);
        assert.deepEqual(
          newest.body.points.map((p: { reportId: string }) => p.reportId),
          crawls.slice(1).map((c) => c.reportId),
        );
        const future = await t.request(
          'GET',
          `${PROJECTS}/${project.id}/trend?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        );
        assert.deepEqual(future.body.points, []);
        for (const bad of ['points=0', 'points=1001', 'since=yesterday', 'color=red']) {
          assert.equal((await t.request('GET', `${PROJECTS}/${project.id}/trend?${bad}`)).status, 400, bad);
        }
      });

      it('files a crawl started at /crawls with a projectId, and refuses a foreign one', async () => {
        const project = await create();
        const answer = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), mode: 'page', projectId: project.id } });
        assert.equal(answer.status, 202);
        assert.equal(answer.body.projectId, project.id);
        await followCrawlEvents(t, answer.body.id);
        const foreign = await create({}, { key: other.key, team: other.workspaceId });
        const refused = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), mode: 'page', projectId: foreign.id } });
        assert.equal(refused.status, 404);
      });
    });

    describe('isolation and roles', () => {
      it("answers 404 on every route for another workspace's project", async () => {
        const foreign = await create({}, { key: other.key, team: other.workspaceId });
        const routes: [string, string, unknown?][] = [
          ['GET', `${PROJECTS}/${foreign.id}`],
          ['PATCH', `${PROJECTS}/${foreign.id}`, { name: 'mine' }],
          ['DELETE', `${PROJECTS}/${foreign.id}`],
          ['POST', `${PROJECTS}/${foreign.id}/crawls`, {}],
          ['GET', `${PROJECTS}/${foreign.id}/crawls`],
          ['GET', `${PROJECTS}/${foreign.id}/reports`],
          ['GET', `${PROJECTS}/${foreign.id}/trend`],
        ];
        for (const [method, path, body] of routes) {
          const answer = await t.request(method, path, { body });
          assert.equal(answer.status, 404, `${method} ${path}`);
        }
        assert.equal((await t.request('GET', `${PROJECTS}/${foreign.id}`, { key: other.key, team: other.workspaceId })).body.name, 'Docs');
      });

      it('lets a viewer read projects but not create, change, crawl or delete them', async () => {
        const project = await create();
        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        assert.equal((await t.request('GET', PROJECTS, { key: viewer })).status, 200);
        assert.equal((await t.request('GET', `${PROJECTS}/${project.id}/trend`, { key: viewer })).status, 200);
        const writes: [string, string, unknown][] = [
          ['POST', PROJECTS, { name: 'x', siteUrl: site.url('/') }],
          ['PATCH', `${PROJECTS}/${project.id}`, { name: 'x' }],
          ['POST', `${PROJECTS}/${project.id}/crawls`, {}],
          ['DELETE', `${PROJECTS}/${project.id}`, undefined],
        ];
        for (const [method, path, body] of writes) {
          const answer = await t.request(method, path, { key: viewer, body });
          assert.equal(answer.status, 403, `${method} ${path}`);
          assert.equal(answer.body.code, 'forbidden');
        }
      });

      it('lets a member create and crawl projects', async () => {
        const member = await t.createMemberKey(t.owner.workspaceId, 'member');
        const project = await create({ crawlDefaults: { maxPages: 1 } }, { key: member });
        const started = await t.request('POST', `${PROJECTS}/${project.id}/crawls`, { key: member, body: {} });
        assert.equal(started.status, 202);
        await followCrawlEvents(t, started.body.id);
      });
    });
  });
}
