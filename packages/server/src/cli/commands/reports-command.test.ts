import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../../testing/fixture-sites.ts';
import { crawlToReport } from '../../testing/test-crawls.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { startTestSite, type TestSite } from '../../testing/test-site.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('loupe reports, diff and search', () => {
  let t: TestServer;
  let site: TestSite;
  let env: Record<string, string>;
  let projectId: string;
  let older: { id: string };
  let newer: { id: string };
  let scratch: string;
  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    site = await startTestSite(generatedSite(40), { record: false });
    env = serverEnv(t);
    scratch = await mkdtemp(join(tmpdir(), 'loupe-cli-reports-'));
    const project = await t.request('POST', '/api/v1/projects', { body: { name: 'Generated', siteUrl: site.url('/') } });
    projectId = project.body.id;
    older = await crawlToReport(t, { url: site.url('/'), projectId, maxPages: 10 });
    newer = await crawlToReport(t, { url: site.url('/'), projectId, maxPages: 15 });
  });
  after(async () => {
    await site.close();
    await t.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists the reports of a project, newest first', async () => {
    const run = await runLoupe(['reports', 'list', '--project', projectId, '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      json(run).map((report: { id: string }) => report.id),
      [newer.id, older.id],
    );
    const table = await runLoupe(['reports', 'list'], env);
    assert.match(table.stdout, /^ID +SITE +SCORE +GRADE +PAGES +ERRORS +WARNINGS +NOTICES +CREATED$/m);
  });

  it('shows a report as a summary, and whole with --json', async () => {
    const run = await runLoupe(['reports', 'get', newer.id], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^pages +15 crawled/m);
    assert.match(run.stdout, /^Top issues/m);
    const whole = json(await runLoupe(['reports', 'get', newer.id, '--json'], env));
    assert.equal(whole.id, newer.id);
    assert.ok(Array.isArray(whole.issues));
  });

  it('exits 4 for an unknown report', async () => {
    const run = await runLoupe(['reports', 'get', UNKNOWN_ID, '--json'], env);
    assert.equal(run.code, 4);
    assert.equal(JSON.parse(run.stderr).code, 'not_found');
  });

  it("lists a report's pages sorted, and refuses a sort column it does not have", async () => {
    const run = await runLoupe(['reports', 'pages', newer.id, '--sort', 'url', '--order', 'desc', '--limit', '4', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const urls = json(run).map((page: { url: string }) => page.url);
    assert.equal(urls.length, 4);
    assert.deepEqual(urls, [...urls].sort().reverse());
    const bad = await runLoupe(['reports', 'pages', newer.id, '--sort', 'colour'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Allowed choices are url, score/);
  });

  it('exports a report as CSV to a file, and as JSON to stdout', async () => {
    const file = join(scratch, 'report.csv');
    const run = await runLoupe(['reports', 'export', newer.id, '--format', 'csv', '--output', file], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Wrote \d+ bytes to /);
    const csv = await readFile(file, 'utf8');
    assert.ok(csv.split('\n').length > 2);
    const exported = json(await runLoupe(['reports', 'export', newer.id, '--json'], env));
    assert.equal(exported.report.id, newer.id);
  });

  it('compares two reports', async () => {
    const run = await runLoupe(['diff', older.id, newer.id], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^pages +10 +15 +\+5$/m);
    assert.match(run.stdout, /^Pages added: 5$/m);
    const diff = json(await runLoupe(['diff', older.id, newer.id, '--json'], env));
    assert.deepEqual([diff.old.id, diff.new.id, diff.pages.added.total], [older.id, newer.id, 5]);
  });

  it('exits 6 for a search before the index is built, then builds it with --build and finds pages', async () => {
    const early = await runLoupe(['search', 'Generated', 'generated'], env);
    assert.equal(early.code, 6);
    assert.match(early.stderr, /Fix: loupe search <project> <query> --build \(search_index_not_built\)/);
    const run = await runLoupe(['search', projectId, 'generated page', '--build', '--limit', '3'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^1\. .+\n {3}http:\/\/127\.0\.0\.1:\d+\/.*\n {3}.+/);
    assert.doesNotMatch(run.stdout, /<mark>|\x1b/, 'no HTML or terminal codes in a pipe');
    const hits = json(await runLoupe(['search', projectId, 'generated', '--json'], env));
    assert.ok(hits.length > 0 && hits.length <= 10);
    assert.match(hits[0].snippet, /<mark>/);
  });

  it('exits 3 in a workspace the key cannot act in', async () => {
    const other = await t.createWorkspace();
    const run = await runLoupe(['reports', 'list', '--workspace', other.workspaceId], env);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /\(not_a_member\)/);
  });
});
