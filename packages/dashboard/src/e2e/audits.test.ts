import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner, signIn, type TestSession } from '@loupe/server/src/sessions/test-session.ts';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { type SiteDefinition, startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { useSession } from './sign-in.ts';

/** A plan whose credits (50) are fewer than its cap (60): a crawl at the cap is refused with 402. */
const PLAN = {
  imageProjects: 3,
  imagesPerProject: 10,
  scheduledCrawls: false,
  customRulePacks: false,
  pagesPerCrawl: 60,
  monthlyCredits: 50,
};

/** Six pages and a broken link; the second crawl fixes one title and changes another. */
function auditedSite(): SiteDefinition {
  const page = (path: string, title: string | null, links: string[]) => htmlPage({ path, title, links });
  return {
    pages: {
      '/': page('/', 'The home page of the audited test site', ['/about', '/blog', '/blog/first', '/blog/second', '/contact', '/missing']),
      '/about': page('/about', 'About the people behind the audited test site', ['/']),
      '/blog': page('/blog', 'The blog of the audited test site, newest first', ['/', '/blog/first', '/blog/second']),
      '/blog/first': page('/blog/first', null, ['/blog']),
      '/blog/second': page('/blog/second', 'The second post of the blog on the audited site', ['/blog']),
      '/contact': page('/contact', 'How to contact the people of the audited test site', ['/']),
    },
    robotsTxt: 'User-agent: *\nDisallow:\n',
  };
}

/** Audit projects, crawls, reports, sharing and diffs in Debian's Chromium against the real server (issue #7, point 3). */
describe('audits in a browser', () => {
  let t: TestServer;
  let site: TestSite;
  let siteDefinition: SiteDefinition;
  let browser: Chromium;
  let page: Page;
  let plansFile: string;
  let workspaceId: string;
  let projectUrl: string;
  let reportUrl: string;

  before(async () => {
    await ensureDashboardBuilt();
    plansFile = join(tmpdir(), `loupe-dashboard-audits-plans-${process.pid}.json`);
    await writeFile(plansFile, JSON.stringify({ free: PLAN }));
    t = await startTestServer('sqlite', { plansFile, crawlAllowPrivate: true });
    workspaceId = t.owner.workspaceId;
    siteDefinition = auditedSite();
    site = await startTestSite(siteDefinition, { record: false });
    browser = await launchChromium();
    await signInBrowser(await setUpOwner(t, 'olga@example.test'));
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
    await rm(plansFile, { force: true });
  });

  const signInBrowser = (session: TestSession) => useSession(browser.context, t.url, session);
  const settled = () => page.locator('.loading-state').first().waitFor({ state: 'detached' });
  const open = async (path: string, heading: string) => {
    await page.goto(`${t.url}/w/${workspaceId}/${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await settled();
  };
  /** Starts a crawl from the project page's form with at most 20 pages, and waits on its progress page for the end. */
  const crawlFromForm = async () => {
    await page.getByRole('link', { name: 'Start crawl' }).click();
    await page.getByRole('heading', { name: 'Start a crawl', level: 1 }).waitFor();
    await page.getByLabel('Max pages').fill('20');
    await page.getByText('Up to 20 credits').waitFor();
    // One request at a time with a pause, so the progress page usually sees the crawl running.
    await page.getByText('More options').click();
    await page.getByLabel('Requests at once').fill('1');
    await page.getByLabel('Delay between requests (ms)').fill('150');
    await page.getByLabel('Check links to other sites').selectOption('false');
    const sent = page.waitForRequest((request) => request.method() === 'POST' && /\/crawls$/.test(new URL(request.url()).pathname));
    await page.getByRole('button', { name: 'Start crawl' }).click();
    assert.equal((await sent).postDataJSON().checkExternalLinks, false);
    await page.waitForURL(/\/crawls\/[^/]+$/);
    await page.getByRole('link', { name: 'Open the report' }).waitFor();
  };

  it('shows an empty list of audit projects with the way to create the first', async () => {
    await open('audits', 'Audits');
    await page.getByText('No audit projects yet').waitFor();
    await screenshot(page, 'audits-empty');
  });

  it("shows the API's refusal of a site URL beside the field", async () => {
    await page.getByRole('button', { name: 'New project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New audit project' });
    await dialog.getByLabel('Name').fill('Audited site');
    await dialog.getByLabel('Site URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.locator('.field-error').waitFor();
    assert.equal(await dialog.getByLabel('Site URL').getAttribute('aria-invalid'), 'true');
  });

  it('creates an audit project and opens it, linking to its schedules, alerts and search', async () => {
    const dialog = page.getByRole('dialog', { name: 'New audit project' });
    await dialog.getByLabel('Site URL').fill(site.url('/'));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Audited site', level: 1 }).waitFor();
    await settled();
    projectUrl = page.url();
    const base = new URL(projectUrl).pathname;
    const nav = page.getByRole('navigation', { name: 'Project' });
    for (const [label, path] of [
      ['Schedules', 'schedules'],
      ['Alerts', 'alerts'],
      ['Search', 'search'],
    ] as const) {
      assert.equal(await nav.getByRole('link', { name: label }).getAttribute('href'), `${base}/${path}`);
    }
    await page.getByText('No crawls yet').waitFor();
    await screenshot(page, 'audit-project-new');
  });

  it('shows the credits a crawl reserves before it starts, and the refusal when they are not there', async () => {
    await page.getByRole('link', { name: 'Start crawl' }).click();
    await page.getByRole('heading', { name: 'Start a crawl', level: 1 }).waitFor();
    await settled();
    await page.getByText('Up to 60 credits, balance 50').waitFor();
    await page.getByText('Not enough credits: lower Max pages to 50 or less.').waitFor();
    await screenshot(page, 'start-crawl');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.getByRole('alert').getByText('This crawl needs 60 credits; the workspace has 50.').waitFor();
    assert.match(page.url(), /\/crawls\/new$/);
  });

  it('starts a crawl from the form and follows its progress to the end', async () => {
    await page.goto(projectUrl);
    await crawlFromForm();
    await page.getByText('Completed').first().waitFor();
    const bar = page.getByRole('progressbar', { name: 'Pages fetched' });
    assert.equal(await bar.getAttribute('value'), await bar.getAttribute('max'));
    // Six pages and the broken link's target.
    await page.getByText('7 of at most 20').waitFor();
    await page.getByText('7 charged').waitFor();
    await screenshot(page, 'crawl-completed');
  });

  it('opens the report: health score, issues by category and severity, and the page index', async () => {
    await page.getByRole('link', { name: 'Open the report' }).click();
    await page.waitForURL(/\/reports\/[^/]+$/);
    reportUrl = page.url();
    await page.getByRole('heading', { name: 'Health' }).waitFor();
    await settled();
    await page.locator('.health-card .score-badge.large').waitFor();
    const issues = page.getByRole('region', { name: 'Issues' });
    await issues.getByRole('heading', { name: /^Titles/ }).waitFor();
    await issues.getByText('if fixed').first().waitFor();
    const rows = page.locator('table.page-index tbody tr');
    assert.equal(await rows.count(), 7);
    // A report belongs to the Audits section: its navigation entry is the current one.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    assert.equal(await sections.getByRole('link', { name: 'Audits' }).getAttribute('aria-current'), 'page');
    assert.equal(await sections.getByRole('link', { name: 'Images' }).getAttribute('aria-current'), null);
    await screenshot(page, 'report');
  });

  it('lists "Fix first" in the order of the API\'s topFixes, the first of its issues that gain', async () => {
    const reportId = new URL(reportUrl).pathname.split('/').at(-1);
    const answer = await t.request('GET', `/api/v1/reports/${reportId}`);
    assert.equal(answer.status, 200);
    const { topFixes, issues } = answer.body as { topFixes: { ruleId: string }[]; issues: { ruleId: string; gain: number }[] };
    assert.ok(topFixes.length >= 2, JSON.stringify(topFixes));
    assert.deepEqual(
      topFixes.map((fix) => fix.ruleId),
      issues
        .filter((issue) => issue.gain > 1e-9)
        .slice(0, topFixes.length)
        .map((issue) => issue.ruleId),
    );
    const shown = await page.locator('ol.top-fixes li a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    assert.deepEqual(
      shown,
      topFixes.map((fix) => `#issue-${fix.ruleId}`),
    );
  });

  /** Waits for the page index to hold one row, this URL's (the previous list may still be on screen for a moment). */
  const onlyRow = async (url: string) => {
    await page.waitForFunction(() => document.querySelectorAll('table.page-index tbody tr').length === 1);
    await page.locator('table.page-index tbody tr').getByRole('link', { name: url }).waitFor();
  };

  it('sorts the page index by status and filters it by status class and by rule', async () => {
    const index = page.locator('table.page-index');
    await index.getByRole('button', { name: 'Status' }).click();
    await page.waitForURL(/sort=status&order=desc/);
    // The status column's cell: another column (the time in ms) may read 404 too.
    await index
      .locator('tbody tr')
      .first()
      .locator(':scope > :nth-child(2)', { hasText: /^\s*404\s*$/ })
      .waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('4xx');
    await page.waitForURL(/status=4xx/);
    await onlyRow(site.url('/missing'));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Rule').selectOption({ label: 'Page has no title' });
    await page.waitForURL(/rule=/);
    await onlyRow(site.url('/blog/first'));
  });

  it("opens a page's detail with its findings", async () => {
    await page
      .locator('table.page-index')
      .getByRole('link', { name: site.url('/blog/first') })
      .click();
    await page.getByRole('heading', { name: 'Page', level: 1 }).waitFor();
    await settled();
    await page.getByRole('heading', { name: /^Findings/ }).waitFor();
    assert.ok((await page.locator('.finding-list > li').count()) > 0);
    await screenshot(page, 'report-page-detail');
    await page.goBack();
    await page.getByRole('heading', { name: 'Health' }).waitFor();
  });

  it('shares the report with a copyable link that works, and unshares it', async () => {
    await page.goto(reportUrl);
    await settled();
    const toggle = page.getByRole('switch', { name: 'Anyone with the link can read this report' });
    assert.equal(await toggle.isChecked(), false);
    await toggle.check();
    const link = await page.getByLabel('Share link').inputValue();
    // Absolute, on LOUPE_PUBLIC_URL (the test server's is http://localhost:8080, whatever its port).
    assert.match(link, /^http:\/\/localhost:8080\/r\/[\w-]+$/);
    await page.getByRole('button', { name: 'Copy link' }).waitFor();
    const served = `${t.url}${new URL(link).pathname}`;
    assert.equal((await fetch(served)).status, 200);
    await screenshot(page, 'report-shared');
    await toggle.uncheck();
    await page.getByLabel('Share link').waitFor({ state: 'detached' });
    assert.equal((await fetch(served)).status, 404);
  });

  it('exports the report as a CSV file', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    assert.match(csv.split(/\r?\n/)[0]!, /^url,status,rule_id/);
  });

  it('compares two crawls of the project: score, issues resolved and the title that changed', async () => {
    siteDefinition.pages['/blog/first'] = htmlPage({
      path: '/blog/first',
      title: 'The first post of the blog on the audited site',
      links: ['/blog'],
    });
    siteDefinition.pages['/about'] = htmlPage({
      path: '/about',
      title: 'Who we are: the people behind the audited test site',
      links: ['/'],
    });
    await page.goto(projectUrl);
    await settled();
    await crawlFromForm();
    await page.goto(projectUrl);
    await settled();
    await page.getByRole('img', { name: /Health score trend\. 2 reports/ }).waitFor();
    await screenshot(page, 'audit-project');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/diff\?old=[^&]+&new=[^&]+$/);
    await page.getByRole('heading', { name: 'Comparison', level: 1 }).waitFor();
    await settled();
    for (const heading of [
      'Score',
      /^New issues/,
      /^Resolved issues/,
      /^Issues gone with their pages/,
      /^Pages added/,
      /^Pages removed/,
      /^New URLs broken/,
      /^Pages gone/,
      /^Status changes/,
    ]) {
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    const resolved = page.getByRole('region', { name: /^Resolved issues/ });
    assert.doesNotMatch((await resolved.getByRole('heading').textContent()) ?? '', /^Resolved issues 0 /);
    const titles = page.getByRole('region', { name: /^Title changes/ });
    await titles.getByRole('cell', { name: site.url('/about') }).waitFor();
    await titles.getByRole('cell', { name: 'Who we are: the people behind the audited test site' }).waitFor();
    await screenshot(page, 'diff');
  });

  it("edits the project's crawl defaults, which the next crawl's form starts from", async () => {
    await page.goto(projectUrl);
    await settled();
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Audited site' });
    assert.equal(await dialog.getByLabel('Site URL').inputValue(), site.url('/'));
    await dialog.getByLabel('Max pages').fill('15');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Start crawl' }).click();
    await page.getByText('Up to 15 credits').waitFor();
    assert.equal(await page.getByLabel('Max pages').inputValue(), '15');
  });

  it('deletes a project after asking, and lists the rest', async () => {
    const doomed = await t.request('POST', '/api/v1/projects', { body: { name: 'Old campaign site', siteUrl: 'https://old.example/' } });
    assert.equal(doomed.status, 201);
    await open(`audits/${doomed.body.id}`, 'Old campaign site');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old campaign site?' });
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await page.waitForURL(/\/audits$/);
    await page.getByRole('link', { name: 'Audited site' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Old campaign site' }).count(), 0);
    assert.equal((await t.request('GET', `/api/v1/projects/${doomed.body.id}`)).status, 404);
  });

  it('fits a phone: the report is no wider than the screen at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(reportUrl);
    await settled();
    await page.locator('table.page-index tbody tr').first().waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await screenshot(page, 'phone-report');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows a viewer the projects and reports without any control that would change them', async () => {
    const viewer = await addPasswordMember(t, workspaceId, t.owner.key, 'viewer');
    await signInBrowser(await signIn(t, viewer));
    await open('audits', 'Audits');
    await page.getByRole('link', { name: 'Audited site' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'New project' }).count(), 0);
    await page.goto(projectUrl);
    await page.getByRole('heading', { name: 'Audited site', level: 1 }).waitFor();
    await settled();
    for (const name of ['Start crawl', 'Edit', 'Delete'])
      assert.equal(await page.getByRole('button', { name }).or(page.getByRole('link', { name })).count(), 0, name);
    // The start form's address typed by hand says what the role lacks instead of a form that would fail.
    await page.goto(`${projectUrl}/crawls/new`);
    await page.getByRole('heading', { name: 'Your role cannot start crawls' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /start/i }).count(), 0);
    await page.goto(reportUrl);
    await page.getByRole('heading', { name: 'Health' }).waitFor();
    await page.getByText('This report is not shared.').waitFor();
    assert.equal(await page.getByRole('switch').count(), 0);
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    await screenshot(page, 'report-viewer');
  });

  it('says so when a report does not exist', async () => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/0190a0a0-0000-7000-8000-000000000000`);
    await page
      .getByRole('alert')
      .getByText(/no such report/i)
      .waitFor();
  });
});
