import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../../testing/fixture-sites.ts';
import { htmlPage } from '../../testing/html-page.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { startTestSite, type TestSite } from '../../testing/test-site.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

describe('loupe crawl', () => {
  let t: TestServer;
  let site: TestSite;
  let env: Record<string, string>;
  before(async () => {
    const plan = { imageProjects: 3, imagesPerProject: 10, scheduledCrawls: false, customRulePacks: false };
    const plans = { free: { ...plan, pagesPerCrawl: 60, monthlyCredits: 1000 }, tiny: { ...plan, pagesPerCrawl: 60, monthlyCredits: 5 } };
    t = await startTestServer('sqlite', { plans, crawlAllowPrivate: true });
    site = await startTestSite(generatedSite(100), { record: false });
    env = serverEnv(t);
  });
  after(async () => {
    await site.close();
    await t.close();
  });

  it('follows a crawl to its end and prints the summary table, with plain progress lines on stderr', async () => {
    const run = await runLoupe(['crawl', site.url('/'), '--max-pages', '20'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^report +[0-9a-f-]{36}$/m);
    assert.match(run.stdout, /^crawl +[0-9a-f-]{36} \(completed\)$/m);
    assert.match(run.stdout, /^credits +20 charged$/m);
    assert.match(run.stdout, /^score +\d+( ±\d+)?$/m);
    assert.match(run.stdout, /^grade +[A-F]$/m);
    assert.match(run.stdout, /^pages +20 crawled/m);
    assert.match(run.stdout, /^issues +\d+ errors, \d+ warnings, \d+ notices$/m);
    assert.match(run.stdout, /^Top issues \(\d+ of \d+, by points lost\):\nSEVERITY +RULE +ISSUE +PAGES +POINTS$/m);
    assert.match(run.stderr, /: completed$/m);
    // What the crawl is doing: pages with their count (and the page fetched last when the
    // server had written one by then), then the report being built.
    assert.match(
      run.stderr,
      /^(starting the crawl|crawling pages \d+\/\d+( \([\d.,]+\/s\))?( · links \d+\/\d+)?( {2}http:\/\/127\.0\.0\.1:\d+\/\S*)?)$/m,
    );
    // Which of the site's broken links the first 20 pages reach depends on the fetch order.
    assert.match(run.stderr, /^pages 20\/20( · links \d+\/\d+)? · building report( · \d+ errors? \(4xx \d+\))?$/m);
    assert.doesNotMatch(run.stderr, /\x1b|\r/, 'no terminal control characters in a pipe');
  });

  it('prints nothing but the crawl and its report with --json', async () => {
    const run = await runLoupe(['crawl', site.url('/'), '--max-pages', '5', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const { crawl, report } = json(run);
    assert.equal(crawl.status, 'completed');
    assert.equal(crawl.pagesCrawled, 5);
    assert.equal(report.id, crawl.reportId);
    assert.equal(typeof report.health.score, 'number');
  });

  it('audits one page with --page', async () => {
    const { crawl } = json(await runLoupe(['crawl', site.url('/pages/5'), '--page', '--json'], env));
    assert.deepEqual([crawl.mode, crawl.pagesCrawled], ['page', 1]);
  });

  it('returns at once with --no-wait, and `crawls watch` follows the crawl to its report', async () => {
    const started = json(await runLoupe(['crawl', site.url('/'), '--max-pages', '3', '--no-wait', '--json'], env));
    assert.ok(['queued', 'running', 'completed'].includes(started.status));
    const watched = await runLoupe(['crawls', 'watch', started.id, '--json'], env);
    assert.equal(watched.code, 0, watched.stderr);
    assert.equal(json(watched).crawl.id, started.id);
    assert.equal(json(watched).report.crawlId, started.id);
  });

  it('exits 8 with the partial report when the crawl was canceled', async () => {
    const started = json(await runLoupe(['crawl', site.url('/'), '--max-pages', '20', '--delay-ms', '1000', '--no-wait', '--json'], env));
    const canceled = await runLoupe(['crawls', 'cancel', started.id], env);
    assert.equal(canceled.code, 0, canceled.stderr);
    const watched = await runLoupe(['crawls', 'watch', started.id], env);
    assert.equal(watched.code, 8);
    assert.match(watched.stdout, /^crawl +[0-9a-f-]{36} \(canceled\)$/m);
    assert.match(watched.stdout, /^report is +partial$/m);
  });

  it('exits 5 with the required and available credits when they are not there', async () => {
    const poor = await t.createWorkspace({ plan: 'tiny' });
    const run = await runLoupe(['crawl', site.url('/'), '--max-pages', '6'], serverEnv(t, poor.key));
    assert.equal(run.code, 5);
    assert.match(run.stderr, /\(insufficient_credits\)\n {2}required: 6\n {2}balance: 5/);
    const asJson = await runLoupe(['crawl', site.url('/'), '--max-pages', '6', '--json'], serverEnv(t, poor.key));
    assert.equal(asJson.code, 5);
    assert.deepEqual(
      [JSON.parse(asJson.stderr).code, JSON.parse(asJson.stderr).required, JSON.parse(asJson.stderr).balance],
      ['insufficient_credits', 6, 5],
    );
  });

  it('exits 2 for a URL the server refuses, and for a bad --max-pages', async () => {
    const refused = await runLoupe(['crawl', 'ftp://example.com/'], env);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /url: /);
    const badFlag = await runLoupe(['crawl', site.url('/'), '--max-pages', 'many'], env);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /--max-pages/);
  });

  it('lists and shows crawls', async () => {
    const list = json(await runLoupe(['crawls', 'list', '--status', 'completed', '--json'], env));
    assert.ok(list.length >= 3);
    assert.ok(list.every((crawl: { status: string }) => crawl.status === 'completed'));
    const shown = await runLoupe(['crawls', 'get', list[0].id], env);
    assert.match(shown.stdout, /^status +completed$/m);
    assert.match(shown.stdout, /^progress +pages \d+\/\d+( · links \d+\/\d+)? · done( · \d+ errors? \(4xx \d+\))?$/m);
  });

  it('lists past crawls with running ones in the API order, at most --limit, and only active ones with --active', async () => {
    const run = await runLoupe(['crawls', 'list', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const all = json<{ id: string; status: string }[]>(run);
    assert.ok(all.some((crawl) => crawl.status === 'completed'));
    assert.ok(all.some((crawl) => crawl.status === 'canceled'));
    assert.deepEqual(
      all.map((crawl) => crawl.id),
      all.map((crawl) => crawl.id).sort(),
    );
    const limited = json(await runLoupe(['crawls', 'list', '--limit', '2', '--json'], env));
    assert.deepEqual(limited, all.slice(0, 2));
    assert.deepEqual(json(await runLoupe(['crawls', 'list', '--active', '--json'], env)), []);
    const table = await runLoupe(['crawls', 'list'], env);
    assert.match(table.stdout, /^ID +STATUS +URL +PAGES +MAX +REPORT +CREATED$/m);
    assert.equal(table.stdout.trim().split('\n').length, all.length + 1);
    const both = await runLoupe(['crawls', 'list', '--active', '--status', 'failed'], env);
    assert.equal(both.code, 2);
  });

  it('names an audit project by name to crawl it and list its crawls', async () => {
    const created = await t.request('POST', '/api/v1/projects', { body: { name: 'Generated site', siteUrl: site.url('/') } });
    assert.equal(created.status, 201);
    const run = await runLoupe(['crawl', site.url('/'), '--project', 'Generated site', '--max-pages', '2', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const listed = json(await runLoupe(['crawls', 'list', '--project', 'Generated site', '--json'], env));
    assert.deepEqual(
      listed.map((crawl: { id: string }) => crawl.id),
      [json(run).crawl.id],
    );
    const unknown = await runLoupe(['crawls', 'list', '--project', 'No such project'], env);
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /No audit project with the id or name "No such project": loupe audit-projects list shows them/);
  });

  it('shows the errors so far by kind in its progress lines and in the crawl it shows', async () => {
    const links = ['/', '/moved-away', '/never-was', '/gone/for-good'];
    const broken = await startTestSite({
      pages: { '/': htmlPage({ path: '/', title: 'A page whose links mostly lead nowhere', links }) },
      robotsTxt: 'User-agent: *\nDisallow:\n',
    });
    try {
      const run = await runLoupe(['crawl', broken.url('/'), '--no-sitemaps'], env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^pages 4\/4( · links \d+\/\d+)? · building report · 3 errors \(4xx 3\)$/m);
      const crawlId = /^crawl +([0-9a-f-]{36})/m.exec(run.stdout)?.[1] ?? '';
      const shown = await runLoupe(['crawls', 'get', crawlId], env);
      assert.match(shown.stdout, /^progress +pages 4\/4( · links \d+\/\d+)? · done · 3 errors \(4xx 3\)$/m);
    } finally {
      await broken.close();
    }
  });
});
