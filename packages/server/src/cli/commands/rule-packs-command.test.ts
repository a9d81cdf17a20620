import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../../testing/fixture-sites.ts';
import { crawlToReport } from '../../testing/test-crawls.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { startTestSite, type TestSite } from '../../testing/test-site.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

const pack = {
  schema: 'loupe.rules/v1',
  name: 'house rules',
  rules: [
    {
      id: 'titles/generated',
      title: 'Titles that say generated',
      category: 'titles',
      severity: 'notice',
      when: { type: 'selector', selector: 'title', test: { op: 'exists' } },
      message: 'A title on {{path}}',
    },
  ],
};

describe('loupe rule-packs', () => {
  let t: TestServer;
  let site: TestSite;
  let env: Record<string, string>;
  let viewerEnv: Record<string, string>;
  let scratch: string;
  let packFile: string;
  let badFile: string;
  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    site = await startTestSite(generatedSite(5), { record: false });
    const workspace = await t.createWorkspace({ plan: 'pro' });
    env = serverEnv(t, workspace.key);
    viewerEnv = serverEnv(t, await t.createMemberKey(workspace.workspaceId, 'viewer'));
    scratch = await mkdtemp(join(tmpdir(), 'loupe-cli-packs-'));
    packFile = join(scratch, 'house.json');
    await writeFile(packFile, JSON.stringify(pack));
    badFile = join(scratch, 'bad.json');
    await writeFile(
      badFile,
      JSON.stringify({ ...pack, rules: [{ ...pack.rules[0], when: { type: 'selector', selector: 'p[', test: { op: 'exists' } } }] }),
    );
    const as = { key: workspace.key, team: workspace.workspaceId };
    const project = await t.request('POST', '/api/v1/projects', { ...as, body: { name: 'Crawled', siteUrl: site.url('/') } });
    await crawlToReport(t, { url: site.url('/'), projectId: project.body.id, maxPages: 5, sitemaps: false }, as);
  });
  after(async () => {
    await site.close();
    await t.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('validates a pack file, naming the offending field of a bad one', async () => {
    const run = await runLoupe(['rule-packs', 'validate', packFile], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), `${packFile} is valid: 1 rules.`);
    const bad = await runLoupe(['rule-packs', 'validate', badFile, '--json'], env);
    assert.equal(bad.code, 2);
    assert.ok(JSON.parse(bad.stderr).details.fieldErrors['pack.rules.0.when.selector']);
  });

  it('exits 2 for a file that is missing or not JSON', async () => {
    const missing = await runLoupe(['rule-packs', 'validate', join(scratch, 'nowhere.json')], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read the pack file .*nowhere\.json: ENOENT/);
    const notJson = join(scratch, 'rules.yaml');
    await writeFile(notJson, 'schema: loupe.rules/v1');
    const run = await runLoupe(['rule-packs', 'create', notJson], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /is not a JSON rule pack/);
  });

  it('previews a pack file on a crawled project before saving it', async () => {
    const run = await runLoupe(['rule-packs', 'preview', packFile, '--project', 'Crawled', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const preview = json(run);
    assert.equal(preview.pagesEvaluated, 5);
    assert.deepEqual([preview.rules[0].ruleId, preview.rules[0].pagesFailing], ['titles/generated', 5]);
  });

  it('creates a pack from a file under its own name, lists, shows, previews and deletes it by name', async () => {
    const created = await runLoupe(['rule-packs', 'create', packFile], env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^Created rule pack house rules \([0-9a-f-]{36}\): 1 rules\.$/m);
    const taken = await runLoupe(['rule-packs', 'create', packFile], env);
    assert.equal(taken.code, 6);
    assert.match(taken.stderr, /Fix: loupe rule-packs list/);
    const list = json(await runLoupe(['rule-packs', 'list', '--json'], env));
    assert.deepEqual(
      list.map((p: { name: string; ruleCount: number }) => [p.name, p.ruleCount]),
      [['house rules', 1]],
    );
    const shown = json(await runLoupe(['rule-packs', 'get', 'house rules', '--json'], env));
    assert.equal(shown.pack.rules[0].enabled, true);
    const preview = await runLoupe(['rule-packs', 'preview', 'house rules', '--project', 'Crawled'], env);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /^Ran over 5 pages of report [0-9a-f-]{36}\.\nRULE +SEVERITY +IN SCOPE +FAILING/);
    assert.equal((await runLoupe(['rule-packs', 'delete', 'house rules'], viewerEnv)).code, 3);
    assert.deepEqual(json(await runLoupe(['rule-packs', 'delete', 'house rules', '--json'], env)), { deleted: true });
    const gone = await runLoupe(['rule-packs', 'get', 'house rules'], env);
    assert.equal(gone.code, 4);
    assert.match(gone.stderr, /loupe rule-packs list shows them/);
  });

  it('exits 2 without --project for a preview, 4 for an unknown pack, 3 for a viewer creating one', async () => {
    const noProject = await runLoupe(['rule-packs', 'preview', packFile], env);
    assert.equal(noProject.code, 2);
    assert.match(noProject.stderr, /required option '--project <project>'/);
    assert.equal((await runLoupe(['rule-packs', 'get', UNKNOWN_ID], env)).code, 4);
    assert.equal((await runLoupe(['rule-packs', 'create', packFile], viewerEnv)).code, 3);
  });
});
