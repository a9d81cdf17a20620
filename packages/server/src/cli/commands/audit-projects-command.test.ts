import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('loupe audit-projects', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let viewerEnv: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    const workspace = await t.createWorkspace({ plan: 'business' });
    env = serverEnv(t, workspace.key);
    viewerEnv = serverEnv(t, await t.createMemberKey(workspace.workspaceId, 'viewer'));
  });
  after(() => t.close());

  it('creates a project with crawl defaults and prints it', async () => {
    const run = await runLoupe(
      ['audit-projects', 'create', 'Docs', '--site', 'https://docs.example.com/', '--max-pages', '50', '--exclude', '/old/**'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Created audit project Docs\nid +[0-9a-f-]{36}\nname +Docs\nsite +https:\/\/docs\.example\.com\/$/m);
    assert.match(run.stdout, /^crawl defaults +\{"maxPages":50,"exclude":\["\/old\/\*\*"\]\}$/m);
  });

  it('lists projects as one JSON array, and as a table', async () => {
    const list = json(await runLoupe(['audit-projects', 'list', '--json'], env));
    assert.ok(Array.isArray(list));
    const docs = list.find((p: { name: string }) => p.name === 'Docs');
    assert.deepEqual(Object.keys(docs).sort(), [
      'crawlDefaults',
      'createdAt',
      'id',
      'latestReport',
      'name',
      'rulePackIds',
      'siteUrl',
      'updatedAt',
    ]);
    const table = await runLoupe(['audit-projects', 'list'], env);
    assert.match(table.stdout, /^ID +NAME +SITE +SCORE +LATEST REPORT\n[0-9a-f-]{36} +Docs +https:\/\/docs\.example\.com\/ +- +-$/m);
  });

  it('shows and updates a project by name, keeping the crawl defaults not named', async () => {
    const shown = json(await runLoupe(['audit-projects', 'get', 'Docs', '--json'], env));
    const run = await runLoupe(['audit-projects', 'update', 'Docs', '--name', 'Handbook', '--max-pages', '80', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const updated = json(run);
    assert.equal(updated.id, shown.id);
    assert.equal(updated.name, 'Handbook');
    assert.deepEqual(updated.crawlDefaults, { maxPages: 80, exclude: ['/old/**'] });
    assert.equal(json(await runLoupe(['audit-projects', 'get', shown.id, '--json'], env)).name, 'Handbook');
  });

  it('exits 2 for an update that changes nothing, and for a site that is not http(s)', async () => {
    const nothing = await runLoupe(['audit-projects', 'update', 'Handbook'], env);
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /Send at least one field to change/);
    const ftp = await runLoupe(['audit-projects', 'create', 'Files', '--site', 'ftp://example.com/', '--json'], env);
    assert.equal(ftp.code, 2);
    assert.ok(JSON.parse(ftp.stderr).details.fieldErrors.siteUrl);
  });

  it('exits 2 with usage for a missing name or --site', async () => {
    const noName = await runLoupe(['audit-projects', 'create', '--site', 'https://example.com/'], env);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /missing required argument 'name'/);
    const noSite = await runLoupe(['audit-projects', 'create', 'Blog', '--json'], env);
    assert.equal(noSite.code, 2);
    assert.match(JSON.parse(noSite.stderr).error, /required option '--site <url>' not specified/);
  });

  it('exits 4 for an unknown id or name, naming the command that lists projects', async () => {
    const byId = await runLoupe(['audit-projects', 'get', UNKNOWN_ID], env);
    assert.equal(byId.code, 4);
    const byName = await runLoupe(['audit-projects', 'delete', 'Nowhere'], env);
    assert.equal(byName.code, 4);
    assert.match(byName.stderr, /loupe audit-projects list shows them/);
  });

  it('lets a viewer list but not create, change or delete', async () => {
    assert.equal((await runLoupe(['audit-projects', 'list'], viewerEnv)).code, 0);
    const create = await runLoupe(['audit-projects', 'create', 'Mine', '--site', 'https://example.com/', '--json'], viewerEnv);
    assert.equal(create.code, 3);
    assert.equal(JSON.parse(create.stderr).code, 'forbidden');
    assert.equal((await runLoupe(['audit-projects', 'delete', 'Handbook'], viewerEnv)).code, 3);
  });

  it('deletes a project by name', async () => {
    const run = await runLoupe(['audit-projects', 'delete', 'Handbook', '--json'], env);
    assert.deepEqual(json(run), { deleted: true });
    assert.equal((await runLoupe(['audit-projects', 'get', 'Handbook'], env)).code, 4);
  });
});
