import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { labReading, seedRendersAndRebuild } from '@loupe/server/src/testing/seeded-renders.ts';
import { crawlToReport, followCrawlEvents } from '@loupe/server/src/testing/test-crawls.ts';
import { loopbackResolver } from '@loupe/server/src/testing/test-resolver.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { useSession } from './sign-in.ts';

/** A rendering crawl's report in Debian's Chromium: a page's lab metrics and screenshot, the site's distribution (issue #28). */
describe('lab metrics and screenshots in a browser', () => {
  let t: TestServer;
  let site: TestSite;
  let browser: Chromium;
  let page: Page;
  let workspaceId: string;
  let reportId: string;
  const ids = new Map<string, string>();
  let shotWidth: number;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite', { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
    workspaceId = t.owner.workspaceId;
    site = await startTestSite({
      pages: {
        '/': htmlPage({ path: '/', title: 'A home page the browser paints quickly', links: ['/heavy'] }),
        '/heavy': htmlPage({ path: '/heavy', title: 'A heavy page whose largest paint comes late', links: ['/'] }),
      },
    });
    const crawled = await crawlToReport(t, { url: site.url('/'), sitemaps: false, maxPages: 5, render: true });
    const pages = await t.request('GET', `/api/v1/reports/${crawled.id}/pages`);
    for (const each of pages.body as { id: string; url: string }[]) ids.set(new URL(each.url).pathname, each.id);
    browser = await launchChromium();
    // The screenshot is a real JPEG of the page, taken by the same Chromium.
    const shooter = await browser.context.newPage();
    await shooter.setViewportSize({ width: 480, height: 300 });
    await shooter.goto(site.url('/heavy'));
    const jpeg = await shooter.screenshot({ type: 'jpeg', quality: 70 });
    shotWidth = 480;
    await shooter.close();
    reportId = await seedRendersAndRebuild(t, crawled.crawlId, [
      { urlId: ids.get('/') as string, lab: labReading({ lcpMs: 900, cls: 0.01, tbtMs: 20, ttfbMs: 40 }), screenshot: null },
      { urlId: ids.get('/heavy') as string, lab: labReading({ lcpMs: 5200, cls: 0.15, tbtMs: 150, ttfbMs: 60 }), screenshot: jpeg },
    ]);
    await useSession(browser.context, t.url, await setUpOwner(t, 'lena@example.test'));
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  const settled = () => page.locator('.loading-state').first().waitFor({ state: 'detached' });
  const reading = (metric: string) => page.locator(`.lab-reading[data-metric="${metric}"]`);

  it("shows a page's lab metrics rated on Google's thresholds, and its screenshot", async () => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}/pages/${ids.get('/heavy')}`);
    await page.getByRole('heading', { name: 'Lab metrics' }).waitFor();
    await settled();
    assert.match((await reading('lcpMs').textContent()) ?? '', /5\.2 s\s*poor/);
    assert.deepEqual(await reading('lcpMs').getAttribute('class'), 'lab-reading poor');
    assert.match((await reading('cls').textContent()) ?? '', /0\.15\s*needs improvement/);
    assert.deepEqual(await reading('tbtMs').getAttribute('class'), 'lab-reading good');
    const image = page.getByRole('img', { name: `The first screen of ${site.url('/heavy')} as the browser rendered it` });
    await image.waitFor();
    await page.waitForFunction(() => (document.querySelector('img.page-screenshot') as HTMLImageElement | null)?.complete === true);
    assert.equal(await image.evaluate((img: HTMLImageElement) => img.naturalWidth), shotWidth);
    await screenshot(page, 'page-lab');
  });

  it("shows what a real rendering crawl measured on a page, with the browser's screenshot", async () => {
    const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false, maxPages: 5, render: true });
    const pages = await t.request('GET', `/api/v1/reports/${report.id}/pages`);
    const heavy = (pages.body as { id: string; url: string }[]).find((each) => each.url === site.url('/heavy'));
    await page.goto(`${t.url}/w/${workspaceId}/reports/${report.id}/pages/${heavy?.id}`);
    await page.getByRole('heading', { name: 'Lab metrics' }).waitFor();
    await page.waitForFunction(() => (document.querySelector('img.page-screenshot') as HTMLImageElement | null)?.complete === true);
    assert.ok((await page.locator('img.page-screenshot').evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0);
    assert.match((await reading('cls').textContent()) ?? '', /good|needs improvement|poor/);
    await screenshot(page, 'page-lab-real');
  });

  it('shows no lab section and no screenshot on a page without them', async () => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}/pages/${ids.get('/')}`);
    await page.getByRole('heading', { name: 'Lab metrics' }).waitFor();
    await settled();
    assert.equal(await page.getByRole('heading', { name: 'Screenshot' }).count(), 0);
  });

  it("shows the site's distribution on the report", async () => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}`);
    const section = page.getByRole('region', { name: 'Lab metrics' });
    await section.waitFor();
    const lcp = section.locator('tr[data-metric="lcpMs"]');
    assert.deepEqual(await lcp.locator('td').evaluateAll((tds) => tds.map((td) => td.textContent?.trim())), [
      '0.9 s',
      '5.2 s',
      '5.2 s',
      '1 · 0 · 1',
    ]);
    assert.equal(await lcp.locator('td.lab-value').nth(1).getAttribute('class'), 'lab-value poor');
    await section.getByText('2 pages loaded in a browser: 2 rendered.').waitFor();
    await screenshot(page, 'report-lab');
  });

  it('sorts the page index by LCP and filters it to the poor ones', async () => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}`);
    await page.getByRole('heading', { name: 'Pages', level: 2 }).waitFor();
    await settled();
    const urls = () => page.locator('table.page-index tbody td.page-url a').allTextContents();
    await page.getByRole('button', { name: 'LCP' }).click();
    await page.waitForURL(/sort=lcpMs&order=desc/);
    await page.waitForFunction(() => document.querySelector('table.page-index tbody td.page-url a')?.textContent?.endsWith('/heavy'));
    assert.deepEqual(await urls(), [site.url('/heavy'), site.url('/')]);
    await page.getByLabel('Lab metric', { exact: true }).selectOption({ label: 'LCP poor' });
    await page.waitForURL(/lab=lcpMs%3Apoor/);
    await page.waitForFunction(() => document.querySelectorAll('table.page-index tbody tr').length === 1);
    assert.deepEqual(await urls(), [site.url('/heavy')]);
    assert.equal(await page.locator('table.page-index tbody td.lab-value.poor').first().textContent(), '5.2 s');
  });

  it('shows how the lab p75s moved between two reports', async () => {
    const raw = await crawlToReport(t, { url: site.url('/'), sitemaps: false, maxPages: 5 });
    await page.goto(`${t.url}/w/${workspaceId}/diff?old=${raw.id}&new=${reportId}`);
    const section = page.getByRole('region', { name: 'Lab metrics (p75)' });
    await section.waitFor();
    const lcp = section.locator('tr[data-metric="lcpMs"] td');
    assert.deepEqual(await lcp.evaluateAll((tds) => tds.map((td) => td.textContent?.trim())), ['–', '5.2 s', '–']);
    await page.goto(`${t.url}/w/${workspaceId}/diff?old=${reportId}&new=${reportId}`);
    await page.getByRole('region', { name: 'Lab metrics (p75)' }).locator('tr[data-metric="cls"] td.diff-delta.same').waitFor();
  });

  it('prices a rendering crawl at five credits a page, starts it, and follows its p75s on the project', async () => {
    const project = await t.request('POST', '/api/v1/projects', {
      body: { name: 'Rendered site', siteUrl: site.url('/'), crawlDefaults: { maxPages: 4 } },
    });
    assert.equal(project.status, 201, JSON.stringify(project.body));
    await page.goto(`${t.url}/w/${workspaceId}/audits/${project.body.id}/crawls/new`);
    await page.getByRole('heading', { name: 'Start a crawl', level: 1 }).waitFor();
    await page.getByText('Up to 4 credits').waitFor();
    await page.getByLabel('Render pages in a browser (5 credits per page)').check();
    await page.getByText('Up to 20 credits').waitFor();
    await page.getByText('5 credits per page crawled, up to 4 pages').waitFor();
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.waitForURL(/\/crawls\/[0-9a-f-]+$/);
    const crawlId = new URL(page.url()).pathname.split('/').at(-1) as string;
    await followCrawlEvents(t, crawlId);
    await page.goto(`${t.url}/w/${workspaceId}/audits/${project.body.id}`);
    const table = page.locator('table.lab-trend');
    await table.getByText('Lab metrics (p75) of the newest rendering crawls').waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1);
    assert.match((await table.locator('tbody td').first().textContent()) ?? '', /^\d+\.\d s$/);
  });
});
