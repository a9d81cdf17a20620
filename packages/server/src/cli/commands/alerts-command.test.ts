import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('loupe alerts', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let viewerEnv: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    const workspace = await t.createWorkspace({ plan: 'pro' });
    env = serverEnv(t, workspace.key);
    viewerEnv = serverEnv(t, await t.createMemberKey(workspace.workspaceId, 'viewer'));
    assert.equal((await runLoupe(['audit-projects', 'create', 'Watched', '--site', 'https://example.com/'], env)).code, 0);
  });
  after(() => t.close());

  it('shows settings never saved as off with no channels', async () => {
    const settings = json(await runLoupe(['alerts', 'get', 'Watched', '--json'], env));
    assert.deepEqual([settings.enabled, settings.channels, settings.updatedAt], [false, [], null]);
    const text = await runLoupe(['alerts', 'get', 'Watched'], env);
    assert.match(text.stdout, /^enabled +no$/m);
  });

  it('sets conditions and channels, showing a new webhook secret once and keeping it on the next set', async () => {
    const run = await runLoupe(
      [
        'alerts',
        'set',
        'Watched',
        '--crawl-failed',
        '--score-below',
        '70',
        '--webhook',
        'https://hooks.example.com/loupe',
        '--email',
        'ops@example.com',
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^conditions +crawl failed, score below 70$/m);
    const secret = /webhook https:\/\/hooks\.example\.com\/loupe \(secret (\S+)\)/.exec(run.stdout)?.[1];
    assert.ok(secret && !secret.endsWith('…'), run.stdout);
    const again = json(
      await runLoupe(['alerts', 'set', 'Watched', '--new-errors', '--webhook', 'https://hooks.example.com/loupe', '--json'], env),
    );
    assert.deepEqual(again.conditions, { crawlFailed: false, scoreBelow: null, scoreDropBy: null, newErrors: true });
    assert.equal(again.channels.length, 1);
    assert.equal(again.channels[0].secret, undefined, 'a kept webhook keeps its secret, not shown again');
    assert.ok(secret.startsWith(again.channels[0].secretPreview.replace('…', '')));
  });

  it('queues a test alert on every channel and lists the deliveries', async () => {
    const run = await runLoupe(['alerts', 'test', 'Watched'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'Queued 1 test alert: loupe alerts deliveries Watched');
    const deliveries = json(await runLoupe(['alerts', 'deliveries', 'Watched', '--json'], env));
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].test, true);
  });

  it('clears the settings', async () => {
    const run = await runLoupe(['alerts', 'clear', 'Watched', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual([json(run).enabled, json(run).channels], [false, []]);
    const tested = await runLoupe(['alerts', 'test', 'Watched'], env);
    assert.equal(tested.stdout.trim(), 'No channels to test: loupe alerts set Watched --webhook <url>');
  });

  it('exits 2 for a bad score or webhook URL, and a missing project', async () => {
    assert.equal((await runLoupe(['alerts', 'set', 'Watched', '--score-below', '101'], env)).code, 2);
    const badUrl = await runLoupe(['alerts', 'set', 'Watched', '--webhook', 'not a url', '--json'], env);
    assert.equal(badUrl.code, 2);
    assert.equal(JSON.parse(badUrl.stderr).code, 'validation_failed');
    const missing = await runLoupe(['alerts', 'get'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required argument 'project'/);
  });

  it('exits 4 for an unknown project, and 3 for a viewer setting alerts', async () => {
    assert.equal((await runLoupe(['alerts', 'get', UNKNOWN_ID], env)).code, 4);
    assert.equal((await runLoupe(['alerts', 'get', 'Watched'], viewerEnv)).code, 0);
    assert.equal((await runLoupe(['alerts', 'set', 'Watched', '--crawl-failed'], viewerEnv)).code, 3);
  });
});
