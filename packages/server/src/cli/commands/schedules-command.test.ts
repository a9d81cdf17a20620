import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('loupe schedules', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let viewerEnv: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    const workspace = await t.createWorkspace({ plan: 'pro' });
    env = serverEnv(t, workspace.key);
    viewerEnv = serverEnv(t, await t.createMemberKey(workspace.workspaceId, 'viewer'));
    const created = await runLoupe(['audit-projects', 'create', 'Nightly', '--site', 'https://example.com/'], env);
    assert.equal(created.code, 0, created.stderr);
  });
  after(() => t.close());

  it('says how to create one when a project has none', async () => {
    const run = await runLoupe(['schedules', 'list', 'Nightly'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'No schedules yet: loupe schedules create Nightly "@daily"');
    assert.deepEqual(json(await runLoupe(['schedules', 'list', 'Nightly', '--json'], env)), []);
  });

  it('creates, lists, disables and deletes a schedule', async () => {
    const run = await runLoupe(
      ['schedules', 'create', 'Nightly', '0 3 * * *', '--timezone', 'Europe/Paris', '--max-pages', '20', '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const schedule = json(run);
    assert.deepEqual(
      [schedule.cron, schedule.timezone, schedule.enabled, schedule.crawl],
      ['0 3 * * *', 'Europe/Paris', true, { maxPages: 20 }],
    );
    assert.ok(Date.parse(schedule.nextRunAt) > Date.now());
    const table = await runLoupe(['schedules', 'list', 'Nightly'], env);
    assert.match(table.stdout, new RegExp(`^${schedule.id} +0 3 \\* \\* \\* +Europe/Paris +yes +\\S+ +-$`, 'm'));
    const disabled = json(await runLoupe(['schedules', 'update', 'Nightly', schedule.id, '--disable', '--json'], env));
    assert.deepEqual([disabled.enabled, disabled.nextRunAt], [false, null]);
    assert.deepEqual(json(await runLoupe(['schedules', 'delete', 'Nightly', schedule.id, '--json'], env)), { deleted: true });
    assert.equal((await runLoupe(['schedules', 'delete', 'Nightly', schedule.id], env)).code, 4);
  });

  it('exits 2 for a bad cron expression, a missing one, and --enable with --disable', async () => {
    const bad = await runLoupe(['schedules', 'create', 'Nightly', 'every day', '--json'], env);
    assert.equal(bad.code, 2);
    assert.ok(JSON.parse(bad.stderr).details.fieldErrors.cron);
    const missing = await runLoupe(['schedules', 'create', 'Nightly'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required argument 'cron'/);
    const both = await runLoupe(['schedules', 'update', 'Nightly', UNKNOWN_ID, '--enable', '--disable'], env);
    assert.equal(both.code, 2);
  });

  it('exits 4 for an unknown project or schedule', async () => {
    assert.equal((await runLoupe(['schedules', 'list', UNKNOWN_ID], env)).code, 4);
    const unknown = await runLoupe(['schedules', 'update', 'Nightly', UNKNOWN_ID, '--enable'], env);
    assert.equal(unknown.code, 4);
  });

  it('lets a viewer list schedules but not create one', async () => {
    assert.equal((await runLoupe(['schedules', 'list', 'Nightly'], viewerEnv)).code, 0);
    assert.equal((await runLoupe(['schedules', 'create', 'Nightly', '@daily'], viewerEnv)).code, 3);
  });

  it('exits 5 on a plan without scheduled crawls', async () => {
    const free = serverEnv(t, (await t.createWorkspace({ plan: 'free' })).key);
    await runLoupe(['audit-projects', 'create', 'Free', '--site', 'https://example.com/'], free);
    const run = await runLoupe(['schedules', 'create', 'Free', '@daily'], free);
    assert.equal(run.code, 5);
    assert.match(run.stderr, /\(plan_feature_unavailable\)/);
  });
});
