import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { ScheduleStore } from './schedule-store.ts';

const PROJECTS = '/api/v1/projects';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The wall clock of `instant` in `timeZone`, as `weekday HH:MM:SS`. */
function wallClock(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('weekday')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

function assertInvalid(answer: HttpAnswer, field: string, message?: RegExp): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'validation_failed');
  const messages = answer.body.details.fieldErrors[field];
  assert.ok(messages, `no error on ${field}: ${JSON.stringify(answer.body.details)}`);
  if (message) assert.match(messages.join(' '), message);
}

for (const dialect of testDialects()) {
  describe(`schedules API (${dialect})`, () => {
    let t: TestServer;
    let pro: TestWorkspace;
    let other: TestWorkspace;

    before(async () => {
      // The loop stays off: these tests are about what the API saves, and nothing may fire meanwhile.
      t = await startTestServer(dialect, { schedulerTickMs: 0 });
      pro = await t.createWorkspace({ plan: 'pro' });
      other = await t.createWorkspace({ plan: 'pro' });
    });
    after(() => t.close());

    const as = (ws: TestWorkspace, key = ws.key) => ({ key, team: ws.workspaceId });
    const schedules = (projectId: string) => `${PROJECTS}/${projectId}/schedules`;

    async function project(ws: TestWorkspace = pro): Promise<string> {
      const answer = await t.request('POST', PROJECTS, { body: { name: 'Site', siteUrl: 'https://example.com/' }, ...as(ws) });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id;
    }

    function post(projectId: string, body: unknown, ws: TestWorkspace = pro, key?: string) {
      return t.request('POST', schedules(projectId), { body, ...as(ws, key) });
    }

    async function create(projectId: string, body: Record<string, unknown> = {}, ws: TestWorkspace = pro) {
      const answer = await post(projectId, { cron: '0 3 * * *', ...body }, ws);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    function patch(projectId: string, scheduleId: string, body: unknown, ws: TestWorkspace = pro, key?: string) {
      return t.request('PATCH', `${schedules(projectId)}/${scheduleId}`, { body, ...as(ws, key) });
    }

    describe('creating and reading', () => {
      it('answers 201 with the schedule, enabled, in UTC, with no crawl options, no last run and its next run', async () => {
        const projectId = await project();
        const before = Date.now();
        const schedule = await create(projectId);
        assert.equal(schedule.projectId, projectId);
        assert.equal(schedule.cron, '0 3 * * *');
        assert.equal(schedule.timezone, 'UTC');
        assert.equal(schedule.enabled, true);
        assert.deepEqual(schedule.crawl, {});
        assert.equal(schedule.lastRun, null);
        assert.equal(schedule.lastRunAt, null);
        assert.equal(schedule.createdAt, schedule.updatedAt);
        const next = new Date(schedule.nextRunAt).getTime();
        assert.ok(next > before && next <= before + DAY, schedule.nextRunAt);
        assert.match(schedule.nextRunAt, /T03:00:00\.000Z$/);
        assert.deepEqual((await t.request('GET', `${schedules(projectId)}/${schedule.id}`, as(pro))).body, schedule);
      });

      it('reads the expression in the time zone given, answered in its canonical spelling', async () => {
        const schedule = await create(await project(), { cron: '30 9 * * 1-5', timezone: 'america/new_york' });
        assert.equal(schedule.timezone, 'America/New_York');
        assert.match(wallClock(schedule.nextRunAt, 'America/New_York'), /^(Mon|Tue|Wed|Thu|Fri) 09:30:00$/);
        assert.ok(new Date(schedule.nextRunAt).getTime() <= Date.now() + 4 * DAY);
      });

      it("takes the workspace's time zone when none is sent", async () => {
        const tokyo = await t.createWorkspace({ plan: 'pro' });
        const settings = await t.request('PATCH', '/api/v1/team', { body: { settings: { timezone: 'Asia/Tokyo' } }, ...as(tokyo) });
        assert.equal(settings.status, 200, JSON.stringify(settings.body));
        const schedule = await create(await project(tokyo), {}, tokyo);
        assert.equal(schedule.timezone, 'Asia/Tokyo');
        assert.match(wallClock(schedule.nextRunAt, 'Asia/Tokyo'), / 03:00:00$/);
        assert.match(schedule.nextRunAt, /T18:00:00\.000Z$/);
      });

      it('keeps the crawl options given, and only those', async () => {
        const crawl = { maxPages: 5, respectRobots: false, include: ['/docs/**'] };
        const schedule = await create(await project(), { crawl });
        assert.deepEqual(schedule.crawl, crawl);
      });

      it('saves a disabled schedule with no next run', async () => {
        const schedule = await create(await project(), { enabled: false });
        assert.equal(schedule.enabled, false);
        assert.equal(schedule.nextRunAt, null);
      });

      it('accepts 5 fields, 6 fields with seconds, a nickname, a leap day, and exactly every 5 minutes', async () => {
        const projectId = await project();
        const every5 = await create(projectId, { cron: '*/5 * * * *' });
        const next = new Date(every5.nextRunAt);
        assert.ok(next.getTime() > Date.now() - MINUTE && next.getTime() <= Date.now() + 5 * MINUTE, every5.nextRunAt);
        assert.equal(next.getUTCMinutes() % 5, 0);
        assert.equal(next.getUTCSeconds(), 0);
        const seconds = await create(projectId, { cron: '30 */10 * * * *' });
        assert.equal(new Date(seconds.nextRunAt).getUTCSeconds(), 30);
        assert.equal(new Date(seconds.nextRunAt).getUTCMinutes() % 10, 0);
        const hourly = await create(projectId, { cron: '@hourly' });
        assert.match(hourly.nextRunAt, /:00:00\.000Z$/);
        const leapDay = await create(projectId, { cron: '0 12 29 2 *' });
        assert.match(leapDay.nextRunAt, /^\d{4}-02-29T12:00:00\.000Z$/);
      });

      it('refuses an expression that runs more often than every 5 minutes, saying so', async () => {
        const projectId = await project();
        for (const cron of ['* * * * *', '*/4 * * * *', '*/30 * * * * *', '0,1 3 * * *', '0-59/3 1 * * *']) {
          assertInvalid(await post(projectId, { cron }), 'cron', /more often than every 5 minutes/);
        }
        // Two runs 2 minutes apart across midnight are as frequent as two within an hour.
        assertInvalid(await post(projectId, { cron: '0,58 0,23 * * *' }), 'cron', /every 5 minutes/);
      });

      it('refuses what is not a cron expression of 5 or 6 fields, or one that never comes due', async () => {
        const projectId = await project();
        for (const cron of ['garbage', '0 0 * *', '* * * * * * *', '61 * * * *', '0 25 * * *', '@reboot']) {
          assertInvalid(await post(projectId, { cron }), 'cron', /5 or 6 fields/);
        }
        assertInvalid(await post(projectId, { cron: '0 0 30 2 *' }), 'cron', /never comes due/);
        for (const cron of ['', '   ', 42, null, 'x'.repeat(201)]) assertInvalid(await post(projectId, { cron }), 'cron');
        assertInvalid(await post(projectId, {}), 'cron');
      });

      it('refuses an unknown time zone', async () => {
        const projectId = await project();
        for (const timezone of ['Mars/Olympus', 'UTC+25', '', 7]) {
          assertInvalid(await post(projectId, { cron: '0 3 * * *', timezone }), 'timezone');
        }
      });

      it('refuses unknown fields, bad crawl options and a crawl aimed at another project', async () => {
        const projectId = await project();
        const cases: [Record<string, unknown>, string][] = [
          [{ cron: '0 3 * * *', every: 'day' }, 'every'],
          [{ cron: '0 3 * * *', enabled: 'yes' }, 'enabled'],
          [{ cron: '0 3 * * *', crawl: { maxPages: 0 } }, 'crawl.maxPages'],
          [{ cron: '0 3 * * *', crawl: { url: 'ftp://example.com/' } }, 'crawl.url'],
          [{ cron: '0 3 * * *', crawl: { projectId: randomUUID() } }, 'crawl.projectId'],
          [{ cron: '0 3 * * *', crawl: { speed: 'fast' } }, 'crawl.speed'],
          [{ cron: '0 3 * * *', crawl: 'all' }, 'crawl'],
        ];
        for (const [body, field] of cases) assertInvalid(await post(projectId, body), field);
        assert.deepEqual((await t.request('GET', schedules(projectId), as(pro))).body, []);
      });

      it("lists a project's schedules oldest first, page by page, and no other project's", async () => {
        const projectId = await project();
        const made = [
          await create(projectId),
          await create(projectId, { cron: '0 4 * * *' }),
          await create(projectId, { cron: '0 5 * * *' }),
        ];
        await create(await project());
        const first = await t.request('GET', `${schedules(projectId)}?limit=2`, as(pro));
        assert.equal(first.status, 200);
        assert.deepEqual(first.body, made.slice(0, 2));
        const next = nextPage(first);
        assert.ok(next);
        const second = await t.request('GET', next, as(pro));
        assert.deepEqual(second.body, made.slice(2));
        assert.equal(nextPage(second), undefined);
      });

      it('allows 10 schedules a project and answers 409 for the 11th, until one is deleted', async () => {
        const projectId = await project();
        const made = [];
        for (let i = 0; i < 10; i++) made.push(await create(projectId, { cron: `${i} 3 * * *` }));
        const eleventh = await post(projectId, { cron: '30 3 * * *' });
        assert.equal(eleventh.status, 409);
        assert.equal(eleventh.body.code, 'schedule_limit_reached');
        assert.equal(eleventh.body.limit, 10);
        assert.match(eleventh.body.error, /at most 10 schedules/);
        await create(await project());
        assert.equal((await t.request('DELETE', `${schedules(projectId)}/${made[0].id}`, as(pro))).status, 200);
        await create(projectId, { cron: '30 3 * * *' });
      });

      it('lets concurrent creates take the last places and no more', async () => {
        const projectId = await project();
        for (let i = 0; i < 8; i++) await create(projectId, { cron: `${i} 3 * * *` });
        const answers = await Promise.all([10, 11, 12, 13].map((minute) => post(projectId, { cron: `${minute} 3 * * *` })));
        assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 409, 409]);
      });
    });

    describe('changing and deleting', () => {
      it('works the next run out again when the expression changes', async () => {
        const projectId = await project();
        const schedule = await create(projectId);
        const answer = await patch(projectId, schedule.id, { cron: '15 4 * * *' });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.cron, '15 4 * * *');
        assert.match(answer.body.nextRunAt, /T04:15:00\.000Z$/);
        assert.ok(answer.body.updatedAt >= schedule.updatedAt);
        assert.deepEqual((await t.request('GET', `${schedules(projectId)}/${schedule.id}`, as(pro))).body, answer.body);
      });

      it('moves the next run with the time zone', async () => {
        const projectId = await project();
        const schedule = await create(projectId);
        const answer = await patch(projectId, schedule.id, { timezone: 'Asia/Kolkata' });
        assert.equal(answer.body.timezone, 'Asia/Kolkata');
        assert.match(answer.body.nextRunAt, /T21:30:00\.000Z$/);
      });

      it('clears the next run when disabled and sets it from now when enabled again', async () => {
        const projectId = await project();
        const schedule = await create(projectId, { cron: '*/5 * * * *' });
        const disabled = await patch(projectId, schedule.id, { enabled: false });
        assert.equal(disabled.body.enabled, false);
        assert.equal(disabled.body.nextRunAt, null);
        const before = Date.now();
        const enabled = await patch(projectId, schedule.id, { enabled: true });
        assert.equal(enabled.body.enabled, true);
        const next = new Date(enabled.body.nextRunAt).getTime();
        assert.ok(next > before - MINUTE && next <= before + 5 * MINUTE, enabled.body.nextRunAt);
      });

      it('replaces the crawl options whole and keeps the next run', async () => {
        const projectId = await project();
        const schedule = await create(projectId, { crawl: { maxPages: 5 } });
        const answer = await patch(projectId, schedule.id, { crawl: { maxDepth: 2 } });
        assert.deepEqual(answer.body.crawl, { maxDepth: 2 });
        assert.equal(answer.body.nextRunAt, schedule.nextRunAt);
        assert.deepEqual((await patch(projectId, schedule.id, { crawl: {} })).body.crawl, {});
      });

      it('refuses an empty change, an unknown field, a bad expression or zone, and keeps the schedule', async () => {
        const projectId = await project();
        const schedule = await create(projectId);
        const empty = await patch(projectId, schedule.id, {});
        assert.equal(empty.status, 400);
        assert.equal(empty.body.code, 'validation_failed');
        assertInvalid(await patch(projectId, schedule.id, { name: 'nightly' }), 'name');
        assertInvalid(await patch(projectId, schedule.id, { cron: '* * * * *' }), 'cron', /every 5 minutes/);
        assertInvalid(await patch(projectId, schedule.id, { cron: 'nope' }), 'cron');
        assertInvalid(await patch(projectId, schedule.id, { timezone: 'Nowhere/Else' }), 'timezone');
        assertInvalid(await patch(projectId, schedule.id, { crawl: { maxPages: -1 } }), 'crawl.maxPages');
        assert.deepEqual((await t.request('GET', `${schedules(projectId)}/${schedule.id}`, as(pro))).body, schedule);
      });

      it('deletes a schedule: 200 { deleted: true }, then 404', async () => {
        const projectId = await project();
        const schedule = await create(projectId);
        const path = `${schedules(projectId)}/${schedule.id}`;
        const deleted = await t.request('DELETE', path, as(pro));
        assert.equal(deleted.status, 200);
        assert.deepEqual(deleted.body, { deleted: true });
        assert.equal((await t.request('GET', path, as(pro))).status, 404);
        assert.equal((await t.request('DELETE', path, as(pro))).status, 404);
        assert.equal((await patch(projectId, schedule.id, { enabled: false })).status, 404);
      });

      it('deletes the schedules of a deleted project', async () => {
        const projectId = await project();
        const schedule = await create(projectId);
        assert.equal((await t.request('DELETE', `${PROJECTS}/${projectId}`, as(pro))).status, 200);
        assert.equal((await t.request('GET', schedules(projectId), as(pro))).status, 404);
        assert.equal(await new ScheduleStore(t.server.database).find(pro.workspaceId, projectId, schedule.id), undefined);
      });
    });

    describe('isolation, roles and plans', () => {
      it("answers 404 for another workspace's project or schedule, and for a schedule under the wrong project", async () => {
        const foreignProject = await project(other);
        const foreign = await create(foreignProject, {}, other);
        const ownProject = await project();
        const own = await create(ownProject);
        const sibling = await project();
        const routes: [string, string, unknown?][] = [
          ['GET', schedules(foreignProject)],
          ['POST', schedules(foreignProject), { cron: '0 3 * * *' }],
          ['GET', `${schedules(foreignProject)}/${foreign.id}`],
          ['PATCH', `${schedules(foreignProject)}/${foreign.id}`, { enabled: false }],
          ['DELETE', `${schedules(foreignProject)}/${foreign.id}`],
          ['GET', `${schedules(ownProject)}/${foreign.id}`],
          ['PATCH', `${schedules(ownProject)}/${foreign.id}`, { enabled: false }],
          ['DELETE', `${schedules(ownProject)}/${foreign.id}`],
          ['GET', `${schedules(sibling)}/${own.id}`],
          ['PATCH', `${schedules(sibling)}/${own.id}`, { enabled: false }],
          ['DELETE', `${schedules(sibling)}/${own.id}`],
          ['GET', `${schedules(ownProject)}/${randomUUID()}`],
          ['GET', schedules(randomUUID())],
        ];
        for (const [method, path, body] of routes) {
          const answer = await t.request(method, path, { body, ...as(pro) });
          assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.body)}`);
          assert.equal(answer.body.code, 'not_found');
        }
        assert.equal((await t.request('GET', `${schedules(ownProject)}/not-a-uuid`, as(pro))).status, 400);
        assert.deepEqual((await t.request('GET', `${schedules(foreignProject)}/${foreign.id}`, as(other))).body, foreign);
        assert.deepEqual((await t.request('GET', `${schedules(ownProject)}/${own.id}`, as(pro))).body, own);
      });

      it('lets a viewer list and read schedules but not create, change or delete them', async () => {
        const projectId = await project();
        const schedule = await create(projectId);
        const viewer = await t.createMemberKey(pro.workspaceId, 'viewer');
        assert.deepEqual((await t.request('GET', schedules(projectId), as(pro, viewer))).body, [schedule]);
        assert.deepEqual((await t.request('GET', `${schedules(projectId)}/${schedule.id}`, as(pro, viewer))).body, schedule);
        const writes: [string, string, unknown][] = [
          ['POST', schedules(projectId), { cron: '0 4 * * *' }],
          ['PATCH', `${schedules(projectId)}/${schedule.id}`, { enabled: false }],
          ['DELETE', `${schedules(projectId)}/${schedule.id}`, undefined],
        ];
        for (const [method, path, body] of writes) {
          const answer = await t.request(method, path, { body, ...as(pro, viewer) });
          assert.equal(answer.status, 403, `${method} ${path}`);
          assert.equal(answer.body.code, 'forbidden');
        }
        assert.deepEqual((await t.request('GET', `${schedules(projectId)}/${schedule.id}`, as(pro))).body, schedule);
      });

      for (const role of ['member', 'admin'] as const) {
        it(`lets ${role === 'admin' ? 'an' : 'a'} ${role} create, change and delete schedules`, async () => {
          const key = await t.createMemberKey(pro.workspaceId, role);
          const projectId = await project();
          const created = await post(projectId, { cron: '0 3 * * *' }, pro, key);
          assert.equal(created.status, 201);
          assert.equal((await patch(projectId, created.body.id, { cron: '0 4 * * *' }, pro, key)).status, 200);
          assert.equal((await t.request('DELETE', `${schedules(projectId)}/${created.body.id}`, as(pro, key))).status, 200);
        });
      }

      it('answers 402 to a create on a plan without scheduled crawls, which can still list', async () => {
        const projectId = await project(t.owner);
        const answer = await post(projectId, { cron: '0 3 * * *' }, t.owner);
        assert.equal(answer.status, 402);
        assert.equal(answer.body.code, 'plan_feature_unavailable');
        assert.match(answer.body.error, /scheduled crawls/);
        const listed = await t.request('GET', schedules(projectId), as(t.owner));
        assert.equal(listed.status, 200);
        assert.deepEqual(listed.body, []);
      });

      it('after a downgrade, reads, disables and deletes schedules but will not keep one on or turn it on', async () => {
        const downgraded = await t.createWorkspace({ plan: 'pro' });
        const projectId = await project(downgraded);
        const schedule = await create(projectId, {}, downgraded);
        await new WorkspaceStore(t.server.database).setPlan(downgraded.workspaceId, 'free', new Date().toISOString());
        const path = `${schedules(projectId)}/${schedule.id}`;
        assert.deepEqual((await t.request('GET', path, as(downgraded))).body, schedule);
        for (const body of [{ cron: '0 4 * * *' }, { enabled: true }, { crawl: { maxPages: 1 } }]) {
          const refused = await patch(projectId, schedule.id, body, downgraded);
          assert.equal(refused.status, 402, JSON.stringify(body));
          assert.equal(refused.body.code, 'plan_feature_unavailable');
        }
        const disabled = await patch(projectId, schedule.id, { enabled: false }, downgraded);
        assert.equal(disabled.status, 200);
        assert.equal(disabled.body.nextRunAt, null);
        assert.equal((await patch(projectId, schedule.id, { crawl: { maxPages: 1 } }, downgraded)).status, 200);
        assert.equal((await patch(projectId, schedule.id, { enabled: true }, downgraded)).status, 402);
        assert.equal((await post(projectId, { cron: '0 3 * * *' }, downgraded)).status, 402);
        assert.equal((await t.request('DELETE', path, as(downgraded))).status, 200);
      });
    });
  });
}
