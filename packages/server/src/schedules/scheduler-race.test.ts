import assert from 'node:assert/strict';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.ts';
import { crawlServiceFor } from '../crawl/crawl-service.ts';
import type { Database } from '../database/database.ts';
import { openDatabase } from '../database/open-database.ts';
import { crawlProjects } from '../rule-packs/crawl-projects.ts';
import { htmlPage } from '../testing/html-page.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { createServerSchema, testDatabaseUrl } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { Scheduler, type TickResult } from './scheduler.ts';

const PROJECTS = '/api/v1/projects';
const ROUNDS = 4;
const SCHEDULES_PER_ROUND = 5;

for (const dialect of testDialects()) {
  describe(`each due run starts once across processes (${dialect})`, () => {
    let schema: { schema: string; drop(): Promise<void> } | undefined;
    let t: TestServer;
    let site: TestSite;
    let ws: TestWorkspace;
    let second: Database;
    let secondScheduler: Scheduler;
    let child: ChildProcessByStdio<Writable, Readable, null>;
    let childLines: AsyncIterator<string>;

    before(async () => {
      // A schema of the test's own, so that the other process can be pointed at it.
      schema = dialect === 'postgres' ? await createServerSchema(testDatabaseUrl(), 'sched') : undefined;
      t = await startTestServer(dialect, { crawlAllowPrivate: true, schedulerTickMs: 0, ...(schema && { databaseSchema: schema.schema }) });
      site = await startTestSite({ pages: { '/': htmlPage({ path: '/' }) } });
      ws = await t.createWorkspace({ plan: 'pro' });

      const config = {
        ...loadConfig({}),
        crawlAllowPrivate: true,
        dataDir: t.dataDir,
        databaseUrl: schema ? testDatabaseUrl() : undefined,
        databaseSchema: schema?.schema,
      };
      // A second scheduler in this process: on PostgreSQL on a pool of its own. SQLite connections
      // wait for each other's locks synchronously, which blocks the one thread both would need,
      // so there it shares the server's connection (and still races it between statements).
      second = dialect === 'postgres' ? openDatabase(config) : t.server.database;
      secondScheduler = new Scheduler({
        database: second,
        plans: t.server.plans,
        crawls: crawlServiceFor({ ...t.server, config, database: second }, crawlProjects(second)),
      });

      // And a real second process on the same database.
      child = spawn(process.execPath, [fileURLToPath(new URL('./ticking-process.ts', import.meta.url))], {
        env: {
          ...process.env,
          LOG_LEVEL: 'silent',
          LOUPE_CRAWL_ALLOW_PRIVATE: 'true',
          LOUPE_DATA_DIR: t.dataDir,
          DATABASE_URL: schema ? testDatabaseUrl() : '',
          LOUPE_TEST_PG_SCHEMA: schema?.schema ?? '',
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      childLines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      assert.equal((await childLines.next()).value, 'ready');
    });

    after(async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
      if (second !== t.server.database) await second.close();
      await site.close();
      await t.close();
      await schema?.drop();
    });

    async function scheduledProject(): Promise<{ projectId: string; scheduleId: string }> {
      const project = await t.request('POST', PROJECTS, {
        body: { name: 'Site', siteUrl: site.url('/') },
        key: ws.key,
        team: ws.workspaceId,
      });
      assert.equal(project.status, 201);
      // Once a year, so that no round's instant is also another round's schedules' due time.
      const schedule = await t.request('POST', `${PROJECTS}/${project.body.id}/schedules`, {
        body: { cron: '0 3 1 1 *', crawl: { maxPages: 1 } },
        key: ws.key,
        team: ws.workspaceId,
      });
      assert.equal(schedule.status, 201);
      return { projectId: project.body.id, scheduleId: schedule.body.id };
    }

    async function childTick(at: string): Promise<TickResult> {
      child.stdin.write(`${at}\n`);
      const line = await childLines.next();
      assert.ok(!line.done, 'the ticking process ended');
      return JSON.parse(line.value) as TickResult;
    }

    it('starts one crawl for each due schedule when three schedulers, one of them in another process, tick the same instant at once', async (context) => {
      const claimedBy = { server: 0, second: 0, child: 0 };
      for (let round = 1; round <= ROUNDS; round++) {
        const scheduled = await Promise.all(Array.from({ length: SCHEDULES_PER_ROUND }, scheduledProject));
        const at = `${2040 + round}-01-01T03:00:00.000Z`;
        const [server, inProcess, other] = await Promise.all([
          t.server.scheduler.tick(new Date(at)),
          secondScheduler.tick(new Date(at)),
          childTick(at),
        ]);
        claimedBy.server += server.runs.length;
        claimedBy.second += inProcess.runs.length;
        claimedBy.child += other.runs.length;

        const runs = [...server.runs, ...inProcess.runs, ...other.runs];
        assert.deepEqual(
          runs.map((run) => run.scheduleId).sort(),
          scheduled.map((s) => s.scheduleId).sort(),
          `round ${round}: each schedule runs exactly once`,
        );
        assert.deepEqual(new Set(runs.map((run) => run.outcome)), new Set(['started']));
        for (const { projectId, scheduleId } of scheduled) {
          const crawls = (await t.request('GET', `${PROJECTS}/${projectId}/crawls`, { key: ws.key, team: ws.workspaceId })).body;
          assert.deepEqual(
            crawls.map((crawl: { id: string }) => crawl.id),
            runs.filter((run) => run.scheduleId === scheduleId).map((run) => run.crawlId),
          );
        }
        for (const run of runs) await followCrawlEvents(t, run.crawlId as string, { key: ws.key, team: ws.workspaceId });
        for (const { projectId, scheduleId } of scheduled) {
          await t.request('DELETE', `${PROJECTS}/${projectId}/schedules/${scheduleId}`, { key: ws.key, team: ws.workspaceId });
        }
      }
      context.diagnostic(`runs claimed: ${JSON.stringify(claimedBy)}`);
    });

    it('starts one crawl when two schedules of one project fall due at once and are claimed by different schedulers', async () => {
      const options = { key: ws.key, team: ws.workspaceId };
      for (let round = 1; round <= ROUNDS; round++) {
        const project = await t.request('POST', PROJECTS, { body: { name: 'Twice', siteUrl: site.url('/') }, ...options });
        const schedules = [];
        for (const cron of ['0 4 1 1 *', '0 4 1 1 *', '0 4 1 1 *']) {
          const schedule = await t.request('POST', `${PROJECTS}/${project.body.id}/schedules`, {
            body: { cron, crawl: { maxPages: 1 } },
            ...options,
          });
          assert.equal(schedule.status, 201);
          schedules.push(schedule.body.id as string);
        }
        const at = `${2060 + round}-01-01T04:00:00.000Z`;
        const ticks = await Promise.all([t.server.scheduler.tick(new Date(at)), secondScheduler.tick(new Date(at)), childTick(at)]);
        const runs = ticks.flatMap((tick) => tick.runs);
        assert.deepEqual(runs.map((run) => run.scheduleId).sort(), [...schedules].sort(), `round ${round}: each schedule runs once`);
        assert.deepEqual(runs.map((run) => run.outcome).sort(), ['skipped-running', 'skipped-running', 'started'], `round ${round}`);
        const crawls = (await t.request('GET', `${PROJECTS}/${project.body.id}/crawls`, options)).body;
        const started = runs.find((run) => run.outcome === 'started');
        assert.deepEqual(
          crawls.map((crawl: { id: string }) => crawl.id),
          [started?.crawlId],
        );
        await followCrawlEvents(t, started?.crawlId as string, options);
        for (const id of schedules) await t.request('DELETE', `${PROJECTS}/${project.body.id}/schedules/${id}`, options);
      }
    });
  });
}
