import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('loupe projects', () => {
  let t: TestServer;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    // The free plan's three projects would run out before the tests do.
    env = serverEnv(t, (await t.createWorkspace({ plan: 'business' })).key);
  });
  after(() => t.close());

  it('creates a project and prints its id and slug', async () => {
    const run = await runLoupe(['projects', 'create', 'Blog images'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Created project Blog images\nid +[0-9a-f-]{36}\nslug +blog-images/);
  });

  it('lists projects as one JSON array with --json', async () => {
    const created = json(await runLoupe(['projects', 'create', 'Listed', '--json'], env));
    const run = await runLoupe(['projects', 'list', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const list = json<{ id: string; name: string }[]>(run);
    assert.ok(list.some((project) => project.id === created.id && project.name === 'Listed'));
    assert.equal(run.stdout.trim().split('\n').length, 1, 'one document on one line when stdout is a pipe');
  });

  it('lists projects as a table, and at most --limit of them', async () => {
    for (const name of ['Paged one', 'Paged two', 'Paged three']) await runLoupe(['projects', 'create', name], env);
    const run = await runLoupe(['projects', 'list'], env);
    assert.equal(run.code, 0, run.stderr);
    const [heading, ...rows] = run.stdout.trim().split('\n');
    assert.match(heading!, /^ID +NAME +SLUG +CUSTOM DOMAIN +SIGNED URLS$/);
    const all = json(await runLoupe(['projects', 'list', '--json'], env));
    assert.ok(all.length >= 5);
    assert.equal(rows.length, all.length);
    const limited = json(await runLoupe(['projects', 'list', '--limit', '2', '--json'], env));
    assert.equal(limited.length, 2);
  });

  it('shows one project with its stats', async () => {
    const created = json(await runLoupe(['projects', 'create', 'Shown', '--json'], env));
    const run = await runLoupe(['projects', 'get', created.id], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^name +Shown$/m);
    assert.match(run.stdout, /^images +0$/m);
  });

  it('names a project by its slug as well as its id', async () => {
    const created = json(await runLoupe(['projects', 'create', 'By Slug', '--json'], env));
    const shown = json(await runLoupe(['projects', 'get', created.slug, '--json'], env));
    assert.equal(shown.id, created.id);
    const renamed = json(await runLoupe(['projects', 'update', created.slug, '--name', 'Renamed', '--json'], env));
    assert.equal(renamed.name, 'Renamed');
    assert.deepEqual(json(await runLoupe(['projects', 'delete', created.slug, '--json'], env)), { deleted: true });
    const gone = await runLoupe(['projects', 'get', created.slug], env);
    assert.equal(gone.code, 4);
    assert.match(gone.stderr, /loupe projects list shows them/);
  });

  it('sets the enlargement default, shows it, and exits 2 on a value the server refuses', async () => {
    const created = json(await runLoupe(['projects', 'create', 'No upscale', '--json'], env));
    const updated = json(await runLoupe(['projects', 'update', created.id, '--enlarge', 'never', '--json'], env));
    assert.equal(updated.enlarge, 'never');
    assert.match((await runLoupe(['projects', 'get', created.id], env)).stdout, /^enlarge +never$/m);
    const refused = await runLoupe(['projects', 'update', created.id, '--enlarge', 'sometimes'], env);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /enlarge/);
  });

  it('deletes a project', async () => {
    const created = json(await runLoupe(['projects', 'create', 'Doomed', '--json'], env));
    const run = await runLoupe(['projects', 'delete', created.id, '--json'], env);
    assert.deepEqual(json(run), { deleted: true });
    assert.equal((await runLoupe(['projects', 'get', created.id], env)).code, 4);
  });

  it('exits 2 with the field errors when the server refuses the input', async () => {
    const run = await runLoupe(['projects', 'create', 'x'.repeat(101)], env);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^loupe: .+ \(validation_failed\)\n {2}name: /);
  });

  it('prints the API error body on stderr with --json', async () => {
    const run = await runLoupe(['projects', 'create', '', '--json'], env);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    const body = JSON.parse(run.stderr);
    assert.equal(body.code, 'validation_failed');
    assert.ok(body.details.fieldErrors.name);
  });

  it('exits 2 on a usage error, as the error body with --json', async () => {
    const missing = await runLoupe(['projects', 'get'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required argument 'project'/);
    const unknown = await runLoupe(['projects', 'get', '--colour', 'red', '--json'], env);
    assert.equal(unknown.code, 2);
    assert.equal(JSON.parse(unknown.stderr).code, 'validation_failed');
  });

  it('exits 4 for an unknown project', async () => {
    const run = await runLoupe(['projects', 'get', UNKNOWN_ID], env);
    assert.equal(run.code, 4);
    assert.match(run.stderr, /\(not_found\)/);
  });

  it('exits 3 for a wrong key, and for no key at all', async () => {
    const wrong = await runLoupe(['projects', 'list'], { ...env, LOUPE_API_KEY: `loupe_${'x'.repeat(43)}` });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /\(unauthorized\)/);
    const none = await runLoupe(['projects', 'list', '--json'], { LOUPE_URL: t.url });
    assert.equal(none.code, 3);
    assert.match(JSON.parse(none.stderr).error, /No API key: pass --key, set LOUPE_API_KEY/);
  });

  it('exits 7 when the server cannot be reached', async () => {
    const run = await runLoupe(['projects', 'list', '--url', 'http://127.0.0.1:9'], env);
    assert.equal(run.code, 7);
    assert.match(run.stderr, /Cannot reach the Loupe server at http:\/\/127\.0\.0\.1:9/);
  });
});
