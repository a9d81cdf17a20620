import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import { CreditStore } from '../credits/credit-store.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { htmlPage } from '../testing/html-page.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { ScheduleStore } from './schedule-store.ts';
import type { TickRun } from './scheduler.ts';

const PROJECTS = '/api/v1/projects';
const DAY = 24 * 60 * 60_000;

for (const dialect of testDialects()) {
  describe(`scheduled crawls firing (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let ws: TestWorkspace;

    before(async () => {
      // The loop stays off: every tick here is a test calling the scheduler with an instant of its choosing.
      t = await startTestServer(dialect, { crawlAllowPrivate: true, schedulerTickMs: 0 });
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', links: ['/a', '/b'] }),
          '/a': htmlPage({ path: '/a', links: ['/', '/b'] }),
          '/b': htmlPage({ path: '/b', links: ['/'] }),
        },
      });
      ws = await t.createWorkspace({ plan: 'pro' });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const as = (workspace: TestWorkspace = ws) => ({ key: workspace.key, team: workspace.workspaceId });

    /** Each test's schedules go when it ends, so a later test's far-future tick fires only its own. */
    const made: { path: string; workspace: TestWorkspace }[] = [];
    afterEach(async () => {
      for (const { path, workspace } of made.splice(0)) await t.request('DELETE', path, as(workspace));
    });

    async function project(body: Record<string, unknown> = {}, workspace: TestWorkspace = ws): Promise<string> {
      const answer = await t.request('POST', PROJECTS, { body: { name: 'Site', siteUrl: site.url('/'), ...body }, ...as(workspace) });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id;
    }

    async function schedule(projectId: string, body: Record<string, unknown> = {}, workspace: TestWorkspace = ws) {
      const answer = await t.request('POST', `${PROJECTS}/${projectId}/schedules`, {
        body: { cron: '0 3 * * *', crawl: { maxPages: 1 }, ...body },
        ...as(workspace),
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      made.push({ path: `${PROJECTS}/${projectId}/schedules/${answer.body.id}`, workspace });
      return answer.body;
    }

    async function read(projectId: string, scheduleId: string, workspace: TestWorkspace = ws) {
      const answer = await t.request('GET', `${PROJECTS}/${projectId}/schedules/${scheduleId}`, as(workspace));
      assert.equal(answer.status, 200);
      return answer.body;
    }

    async function projectCrawls(projectId: string, workspace: TestWorkspace = ws) {
      return (await t.request('GET', `${PROJECTS}/${projectId}/crawls`, as(workspace))).body as { id: string; status: string }[];
    }

    /** This schedule's runs of one tick at `at` (other tests' schedules may come due at the same instant). */
    async function tick(at: Date | string, scheduleId: string): Promise<TickRun[]> {
      const result = await t.server.scheduler.tick(new Date(at));
      return result.runs.filter((run) => run.scheduleId === scheduleId);
    }

    /** Waits for the run's crawl to end, so that nothing is left running when the next test ticks. */
    async function ended(run: TickRun | undefined, workspace: TestWorkspace = ws) {
      assert.equal(run?.outcome, 'started', JSON.stringify(run));
      await followCrawlEvents(t, run.crawlId as string, as(workspace));
      return (await t.request('GET', `/api/v1/crawls/${run.crawlId}`, as(workspace))).body;
    }

    it("starts nothing before the due instant, one crawl at it with the schedule's options, and nothing more at that instant", async () => {
      const projectId = await project({ crawlDefaults: { maxPages: 3, respectRobots: false } });
      const created = await schedule(projectId, { crawl: { url: site.url('/a'), maxPages: 2 } });
      const due = new Date(created.nextRunAt);

      assert.deepEqual(await tick(new Date(due.getTime() - 1), created.id), []);
      assert.deepEqual(await read(projectId, created.id), created);
      assert.deepEqual(await projectCrawls(projectId), []);

      const runs = await tick(due, created.id);
      assert.equal(runs.length, 1);
      const [run] = runs;
      assert.equal(run?.outcome, 'started');
      assert.equal(run?.projectId, projectId);
      const crawl = (await t.request('GET', `/api/v1/crawls/${run?.crawlId}`, as())).body;
      assert.equal(crawl.projectId, projectId);
      assert.equal(crawl.url, site.url('/a'));
      assert.equal(crawl.maxPages, 2);
      assert.deepEqual(
        (await projectCrawls(projectId)).map((c) => c.id),
        [run?.crawlId],
      );

      const afterRun = await read(projectId, created.id);
      assert.deepEqual(afterRun.lastRun, { at: due.toISOString(), outcome: 'started', crawlId: run?.crawlId });
      assert.equal(afterRun.lastRunAt, due.toISOString());
      assert.equal(afterRun.nextRunAt, new Date(due.getTime() + DAY).toISOString());

      assert.deepEqual(await tick(due, created.id), []);
      assert.equal((await projectCrawls(projectId)).length, 1);
      const finished = await ended(run);
      assert.equal(finished.status, 'completed');
      assert.ok(finished.pagesCrawled >= 1 && finished.pagesCrawled <= 2);
    });

    it('fires a run missed while no process ticked once, late, then moves on to the next occurrence after now', async () => {
      const projectId = await project();
      const created = await schedule(projectId);
      const late = new Date(new Date(created.nextRunAt).getTime() + 3 * DAY + 5 * 60 * 60_000);
      const runs = await tick(late, created.id);
      assert.equal(runs.length, 1);
      await ended(runs[0]);
      const read1 = await read(projectId, created.id);
      assert.equal(read1.lastRun.at, late.toISOString());
      assert.equal(read1.nextRunAt, new Date(new Date(created.nextRunAt).getTime() + 4 * DAY).toISOString());
      assert.deepEqual(await tick(late, created.id), []);
      assert.equal((await projectCrawls(projectId)).length, 1);
    });

    it('keeps the wall-clock time of its time zone across daylight saving changes', async () => {
      const projectId = await project();
      const created = await schedule(projectId, { timezone: 'Europe/Berlin' });
      assert.match(
        new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', timeStyle: 'medium', hourCycle: 'h23' }).format(
          new Date(created.nextRunAt),
        ),
        /^03:00:00$/,
      );
      // Berlin moves to summer time on 25 March 2040 and back on 28 October 2040.
      const steps: [string, string][] = [
        ['2040-03-24T02:00:00.000Z', '2040-03-25T01:00:00.000Z'],
        ['2040-03-25T01:00:00.000Z', '2040-03-26T01:00:00.000Z'],
        ['2040-10-27T01:00:00.000Z', '2040-10-28T02:00:00.000Z'],
        ['2040-10-28T02:00:00.000Z', '2040-10-29T02:00:00.000Z'],
      ];
      for (const [at, next] of steps) {
        const runs = await tick(at, created.id);
        assert.equal(runs.length, 1, at);
        await ended(runs[0]);
        assert.equal((await read(projectId, created.id)).nextRunAt, next, at);
      }
    });

    it('skips a run while a crawl of the project is running, records why, and runs again once it has ended', async () => {
      const hanging = await startTestSite({ pages: { '/': { hang: 'before-headers' } } });
      try {
        const projectId = await project({ siteUrl: hanging.url('/'), crawlDefaults: { respectRobots: false, sitemaps: false } });
        const created = await schedule(projectId);
        const manual = await t.request('POST', `${PROJECTS}/${projectId}/crawls`, { body: {}, ...as() });
        assert.equal(manual.status, 202);
        await hanging.requests.waitFor('/');

        const due = created.nextRunAt;
        const runs = await tick(due, created.id);
        assert.deepEqual(
          runs.map(({ outcome, crawlId }) => ({ outcome, crawlId })),
          [{ outcome: 'skipped-running', crawlId: undefined }],
        );
        const skipped = await read(projectId, created.id);
        assert.equal(skipped.lastRun.outcome, 'skipped-running');
        assert.equal(skipped.lastRun.at, due);
        assert.equal(skipped.lastRun.crawlId, undefined);
        assert.match(skipped.lastRun.reason, /queued or running/);
        assert.equal(skipped.nextRunAt, new Date(new Date(due).getTime() + DAY).toISOString());
        assert.deepEqual(
          (await projectCrawls(projectId)).map((c) => c.id),
          [manual.body.id],
        );

        await t.request('POST', `/api/v1/crawls/${manual.body.id}/cancel`, as());
        await hanging.close();
        await followCrawlEvents(t, manual.body.id, as());
        const next = await tick(skipped.nextRunAt, created.id);
        await ended(next[0]);
        assert.equal((await projectCrawls(projectId)).length, 2);
      } finally {
        await hanging.close();
      }
    });

    it('skips runs while the plan lacks scheduled crawls, and moves on', async () => {
      const downgraded = await t.createWorkspace({ plan: 'pro' });
      const projectId = await project({}, downgraded);
      const created = await schedule(projectId, {}, downgraded);
      await new WorkspaceStore(t.server.database).setPlan(downgraded.workspaceId, 'free', new Date().toISOString());
      const runs = await tick(created.nextRunAt, created.id);
      assert.deepEqual(
        runs.map((run) => run.outcome),
        ['skipped-plan'],
      );
      const skipped = await read(projectId, created.id, downgraded);
      assert.equal(skipped.lastRun.outcome, 'skipped-plan');
      assert.match(skipped.lastRun.reason, /plan/);
      assert.equal(skipped.nextRunAt, new Date(new Date(created.nextRunAt).getTime() + DAY).toISOString());
      assert.deepEqual(await projectCrawls(projectId, downgraded), []);
    });

    it('records a run whose crawl cannot start, with the reason, and moves on', async () => {
      const poor = await t.createWorkspace({ plan: 'pro' });
      const projectId = await project({}, poor);
      const created = await schedule(projectId, {}, poor);
      const credits = new CreditStore(t.server.database);
      assert.ok(await credits.reserve(poor.workspaceId, (await credits.balance(poor.workspaceId)) as number, randomUUID()));
      const runs = await tick(created.nextRunAt, created.id);
      assert.deepEqual(
        runs.map((run) => run.outcome),
        ['failed'],
      );
      const failed = await read(projectId, created.id, poor);
      assert.equal(failed.lastRun.outcome, 'failed');
      assert.match(failed.lastRun.reason, /credits/);
      assert.equal(failed.nextRunAt, new Date(new Date(created.nextRunAt).getTime() + DAY).toISOString());
      assert.deepEqual(await projectCrawls(projectId, poor), []);
    });

    it('never fires a disabled schedule, and fires it once enabled', async () => {
      const projectId = await project();
      const created = await schedule(projectId, { enabled: false });
      assert.deepEqual(await tick('2045-06-01T00:00:00.000Z', created.id), []);
      const enabled = await t.request('PATCH', `${PROJECTS}/${projectId}/schedules/${created.id}`, { body: { enabled: true }, ...as() });
      const runs = await tick(enabled.body.nextRunAt, created.id);
      await ended(runs[0]);
    });

    it('fires nothing for a deleted schedule or a deleted project', async () => {
      const projectId = await project();
      const gone = await schedule(projectId);
      const kept = await schedule(await project());
      assert.equal((await t.request('DELETE', `${PROJECTS}/${projectId}/schedules/${gone.id}`, as())).status, 200);
      assert.deepEqual(await tick(gone.nextRunAt, gone.id), []);
      assert.equal((await t.request('DELETE', `${PROJECTS}/${kept.projectId}`, as())).status, 200);
      assert.deepEqual(await tick(kept.nextRunAt, kept.id), []);
    });
  });
  describe(`the server's own scheduler loop (${dialect})`, () => {
    it('starts the crawl of a schedule that has come due, with the real time', async () => {
      const t = await startTestServer(dialect, { crawlAllowPrivate: true, schedulerTickMs: 20 });
      const site = await startTestSite({ pages: { '/': htmlPage({ path: '/' }) } });
      try {
        const ws = await t.createWorkspace({ plan: 'pro' });
        const as = { key: ws.key, team: ws.workspaceId };
        const project = await t.request('POST', PROJECTS, { body: { name: 'Site', siteUrl: site.url('/') }, ...as });
        const created = await t.request('POST', `${PROJECTS}/${project.body.id}/schedules`, {
          body: { cron: '0 3 * * *', crawl: { maxPages: 1 } },
          ...as,
        });
        assert.equal(created.status, 201);
        // Due a minute ago, as after a restart, rather than waiting for 03:00.
        const dueAt = new Date(Date.now() - 60_000).toISOString();
        await new ScheduleStore(t.server.database).update(created.body.id, { next_run_at: dueAt });
        const path = `${PROJECTS}/${project.body.id}/schedules/${created.body.id}`;
        // No event tells of a tick, so the test asks until the run shows, for 10 s at most.
        let schedule = (await t.request('GET', path, as)).body;
        for (const deadline = Date.now() + 10_000; schedule.lastRun === null && Date.now() < deadline; ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          schedule = (await t.request('GET', path, as)).body;
        }
        assert.equal(schedule.lastRun?.outcome, 'started', JSON.stringify(schedule));
        assert.ok(schedule.lastRun.at > dueAt);
        assert.ok(schedule.nextRunAt > schedule.lastRun.at);
        assert.match(schedule.nextRunAt, /T03:00:00\.000Z$/);
        await followCrawlEvents(t, schedule.lastRun.crawlId, as);
      } finally {
        await site.close();
        await t.close();
      }
    });
  });
}
