import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

describe('loupe presets', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let project: string;
  before(async () => {
    t = await startTestServer('sqlite');
    env = serverEnv(t);
    project = json(await runLoupe(['projects', 'create', 'Presets', '--json'], env)).id;
  });
  after(() => t.close());

  it('creates a preset from short and long transform names, each value of its own type', async () => {
    const run = await runLoupe(
      [
        'presets',
        'create',
        'card',
        '--project',
        project,
        '-t',
        'w=640',
        '-t',
        'fit=cover',
        '-t',
        'bg=000000',
        '-t',
        'grayscale=true',
        '--json',
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(json(run).transforms, { width: 640, fit: 'cover', bg: '000000', grayscale: true });
  });

  it('lists presets as a table', async () => {
    await runLoupe(['presets', 'create', 'listed', '--project', project, '-t', 'width=10'], env);
    const run = await runLoupe(['presets', 'list', '--project', project], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ID +NAME +TRANSFORMS$/m);
    assert.match(run.stdout, /^\S+ +listed +width=10$/m);
  });

  it('exits 6 for a name the project already has', async () => {
    await runLoupe(['presets', 'create', 'taken', '--project', project, '-t', 'width=10'], env);
    const run = await runLoupe(['presets', 'create', 'taken', '--project', project, '-t', 'width=20', '--json'], env);
    assert.equal(run.code, 6);
    assert.equal(JSON.parse(run.stderr).code, 'preset_name_taken');
  });

  it('exits 2 naming each bad transform', async () => {
    const run = await runLoupe(['presets', 'create', 'bad', '--project', project, '-t', 'width=0', '-t', 'colour=red'], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^ {2}transforms\.width: /m);
    assert.match(run.stderr, /^ {2}transforms\.colour: /m);
    const malformed = await runLoupe(['presets', 'create', 'bad', '--project', project, '-t', 'width'], env);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /--transform takes name=value, not "width"/);
  });

  it('shows and deletes a preset by name', async () => {
    await runLoupe(['presets', 'create', 'doomed', '--project', project, '-t', 'height=50'], env);
    const shown = await runLoupe(['presets', 'get', 'doomed', '--project', project], env);
    assert.match(shown.stdout, /^doomed \(\S+\): height=50$/m);
    const deleted = await runLoupe(['presets', 'delete', 'doomed', '--project', project, '--json'], env);
    assert.deepEqual(json(deleted), { deleted: true });
    const gone = await runLoupe(['presets', 'get', 'doomed', '--project', project], env);
    assert.equal(gone.code, 4);
  });

  it('updates a preset by name in a project named by its slug, and refuses a viewer', async () => {
    const slug = json(await runLoupe(['projects', 'get', project, '--json'], env)).slug;
    await runLoupe(['presets', 'create', 'card', '--project', project, '-t', 'width=300'], env);
    const run = await runLoupe(
      ['presets', 'update', 'card', '--project', slug, '--name', 'card-wide', '-t', 'width=600', '-t', 'f=webp'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Updated preset card-wide \([0-9a-f-]{36}\): width=600 format=webp$/m);
    const nothing = await runLoupe(['presets', 'update', 'card-wide', '--project', slug, '--json'], env);
    assert.equal(nothing.code, 2);
    assert.equal(JSON.parse(nothing.stderr).code, 'validation_failed');
    const unknown = await runLoupe(['presets', 'update', 'card', '--project', slug, '--name', 'x'], env);
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /loupe presets list --project/);
    const viewer = serverEnv(t, await t.createMemberKey(t.owner.workspaceId, 'viewer'));
    assert.equal((await runLoupe(['presets', 'update', 'card-wide', '--project', project, '--name', 'mine'], viewer)).code, 3);
  });

  it('exits 2 without --project', async () => {
    const run = await runLoupe(['presets', 'list'], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /required option '--project <project>' not specified/);
  });
});
