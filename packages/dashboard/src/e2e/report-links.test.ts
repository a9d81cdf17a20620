import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { brokenLinksSite } from '@loupe/server/src/testing/fixture-sites.ts';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { crawlToReport } from '@loupe/server/src/testing/test-crawls.ts';
import { loopbackResolver } from '@loupe/server/src/testing/test-resolver.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import type { Locator, Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { useSession } from './sign-in.ts';

/** Links on one page, more than a page of the links view (50) or of a page's own lists (20) holds. */
const MANY = 60;
const NO_SUCH_HOST = 'http://gone.invalid/away';

/**
 * The broken-links site, its home page also naming a host that does not exist and a page of
 * many links (nofollow, so the crawl keeps them without fetching their targets); it names the
 * missing page 3 times with 2 anchors, and the ok page twice, once nofollow.
 */
function linkedSite(externalOrigin: string) {
  const site = brokenLinksSite({ externalOrigin });
  const { known } = site;
  site.pages['/'] = htmlPage({
    path: '/',
    title: 'Broken links test site: a home page with bad links',
    links: [
      known.ok,
      known.alsoLinksMissing,
      known.missing,
      { href: known.missing, text: 'Missing, in the footer' },
      { href: known.ok, text: 'OK, not followed', rel: 'nofollow' },
      { href: known.missing, text: 'Missing' },
      known.gone,
      known.serverError,
      known.forbidden,
      known.rateLimited,
      known.externalOk,
      known.externalMissing,
      { href: NO_SUCH_HOST, text: 'A host that does not exist' },
      { href: '/many-links', text: 'Many links' },
    ],
    images: [
      { src: known.image, alt: 'A picture that loads' },
      { src: known.brokenImage, alt: 'A picture that is gone' },
    ],
  });
  (site.pages as Record<string, string>)['/many-links'] = htmlPage({
    path: '/many-links',
    title: 'A page with more links than a list shows at once',
    links: Array.from({ length: MANY }, (_, n) => ({ href: `/n/${String(n).padStart(3, '0')}`, text: `Link ${n}`, rel: 'nofollow' })),
  });
  return site;
}

/** A report's link graph in Debian's Chromium: a page's inlinks and outlinks, and the report's links view (issue #24). */
describe("a report's links in a browser", () => {
  let t: TestServer;
  let site: TestSite;
  let external: TestSite;
  let browser: Chromium;
  let page: Page;
  let workspaceId: string;
  let reportId: string;
  /** Page ids of the report by path. */
  const ids = new Map<string, string>();

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite', { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
    workspaceId = t.owner.workspaceId;
    external = await startTestSite({ pages: { '/exists': htmlPage({ path: '/exists', title: 'A page of another site' }) } });
    site = await startTestSite(linkedSite(external.origin), { record: false });
    const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false });
    reportId = report.id;
    const pages = await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=100`);
    assert.equal(pages.status, 200);
    for (const each of pages.body as { id: string; url: string }[]) ids.set(new URL(each.url).pathname, each.id);
    browser = await launchChromium();
    await useSession(browser.context, t.url, await setUpOwner(t, 'olga@example.test'));
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await external?.close();
    await t?.close();
  });

  const settled = () => page.locator('.loading-state').first().waitFor({ state: 'detached' });
  const pageDetail = async (path: string) => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}/pages/${ids.get(path)}`);
    await page.getByRole('heading', { name: 'Page', level: 1 }).waitFor();
    await settled();
  };
  const linksView = async (query = '') => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}/links${query}`);
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    await settled();
  };
  const section = (name: string) => page.getByRole('region', { name, exact: true });
  const rows = (within: Locator) => within.locator('table.link-table tbody tr');
  /** The rows' cells as text, one array per row. */
  const cellTexts = (within: Locator) =>
    rows(within).evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')));
  /** Waits until the table holds exactly `count` rows (a previous list may still be on screen for a moment). */
  const rowCount = (count: number) =>
    page.waitForFunction((n) => document.querySelectorAll('table.link-table tbody tr').length === n, count);

  /** Each row's first anchor, without the ×N and the other anchors beside it. */
  const firstAnchors = (within: Locator) =>
    rows(within).evaluateAll((trs) => trs.map((tr) => tr.querySelector('td.link-anchor')?.firstChild?.textContent ?? ''));

  it('lists the pages linking to a missing page, each with its anchor and a link to its own detail', async () => {
    await pageDetail('/missing');
    const inlinks = section('Links to this page');
    await rows(inlinks).first().waitFor();
    assert.deepEqual((await cellTexts(inlinks)).map((cells) => cells[0]).sort(), [site.url('/'), site.url('/also-links-missing')].sort());
    assert.deepEqual(await firstAnchors(inlinks), ['Missing', 'Missing']);
    assert.deepEqual(
      (await cellTexts(inlinks)).map((cells) => cells[4]),
      ['404', '404'],
    );
    await inlinks.getByText('2 links').waitFor();
    // A 404 answer has no HTML: nothing links on from it, and the list says so.
    await section('Links on this page').getByRole('heading', { name: 'No links on this page' }).waitFor();
    await screenshot(page, 'page-inlinks');
    await inlinks.getByRole('link', { name: site.url('/also-links-missing') }).click();
    await page.waitForURL(new RegExp(`/pages/${ids.get('/also-links-missing')}$`));
    await page.getByText(site.url('/also-links-missing')).first().waitFor();
  });

  it('shows ×3 beside a link the page names three times, its other anchor on hover and on expanding', async () => {
    await pageDetail('/missing');
    const inlinks = section('Links to this page');
    const fromHome = rows(inlinks).filter({ has: page.getByRole('link', { name: site.url('/'), exact: true }) });
    const times = fromHome.locator('.link-occurrences');
    assert.equal(await times.locator('[aria-hidden="true"]').textContent(), '×3');
    assert.equal(await times.getAttribute('title'), 'Named 3 times on the page: “Missing”, “Missing, in the footer”');
    const other = fromHome.getByText('Missing, in the footer', { exact: true });
    assert.equal(await other.isVisible(), false);
    await fromHome.getByText('1 other anchor', { exact: true }).click();
    await other.waitFor();
    await screenshot(page, 'page-inlinks-occurrences');
    const fromOther = rows(inlinks).filter({ has: page.getByRole('link', { name: site.url('/also-links-missing'), exact: true }) });
    assert.equal(await fromOther.locator('.link-occurrences, .link-more-anchors').count(), 0);

    await linksView('?status=broken');
    const inView = page.locator('table.link-table tbody tr').filter({ hasText: 'Missing, in the footer' });
    assert.equal(await inView.count(), 1);
    assert.equal(await inView.locator('.link-occurrences [aria-hidden="true"]').textContent(), '×3');

    await pageDetail('/');
    const ok = rows(section('Links on this page')).filter({ has: page.getByRole('link', { name: site.url('/ok'), exact: true }) });
    assert.equal(await ok.getByText('partly nofollow', { exact: true }).count(), 1);
    assert.equal(await ok.locator('.link-occurrences [aria-hidden="true"]').textContent(), '×2');
  });

  it("lists a page's outlinks with the status, final URL and reason of each target", async () => {
    await pageDetail('/');
    const outlinks = section('Links on this page');
    await rows(outlinks).first().waitFor();
    const byTarget = new Map((await cellTexts(outlinks)).map((cells) => [cells[0], cells]));
    // Target, anchor, kind, rel, status, final URL, reason.
    assert.deepEqual(byTarget.get(NO_SUCH_HOST)?.slice(1), ['A host that does not exist', 'Link<a>', '–', 'none', '–', 'no such host']);
    assert.deepEqual(byTarget.get(site.url('/server-error'))?.slice(4), ['500', '–', '–']);
    assert.deepEqual(byTarget.get(site.url('/images/missing.png'))?.slice(1, 5), ['A picture that is gone', 'Image<img>', '–', '404']);
    // A page of the report links to its detail; an image or another site's URL does not.
    assert.equal(
      await outlinks.getByRole('link', { name: site.url('/ok'), exact: true }).getAttribute('href'),
      `/w/${workspaceId}/reports/${reportId}/pages/${ids.get('/ok')}`,
    );
    assert.equal(await outlinks.getByRole('link', { name: site.url('/images/missing.png') }).count(), 0);
    assert.equal(await outlinks.getByRole('link', { name: `${external.origin}/missing` }).count(), 0);
    const inlinks = section('Links to this page');
    await inlinks.getByText('2 links', { exact: true }).waitFor();
    assert.deepEqual((await cellTexts(inlinks)).map((cells) => [cells[0], cells[1]]).sort(), [
      [site.url('/also-links-missing'), 'Home'],
      [site.url('/ok'), 'Home'],
    ]);
    await screenshot(page, 'page-outlinks');
  });

  it("pages through a page's outlinks, 20 at a time, and back", async () => {
    await pageDetail('/many-links');
    const outlinks = section('Links on this page');
    const seen: string[][] = [];
    for (const tally of ['Links 1–20 shown, more follow', 'Links 21–40 shown, more follow', `${MANY} links (41–${MANY} shown)`]) {
      if (seen.length > 0) await outlinks.getByRole('button', { name: 'Next' }).click();
      await outlinks.getByText(tally, { exact: true }).waitFor();
      const cells = await cellTexts(outlinks);
      assert.equal(cells.length, 20);
      seen.push(...cells);
    }
    assert.equal(await outlinks.getByRole('button', { name: 'Next' }).isDisabled(), true);
    const link7 = seen.find((cells) => cells[0] === site.url('/n/007'));
    assert.deepEqual(link7, [site.url('/n/007'), 'Link 7', 'Link<a>', 'nofollow', 'none', '–', 'not checked: nofollow']);
    assert.equal(new Set(seen.map((cells) => cells[0])).size, MANY);
    const second = seen[20]?.[0] as string;
    await outlinks.getByRole('button', { name: 'Previous' }).click();
    await outlinks.getByText('Links 21–40 shown, more follow', { exact: true }).waitFor();
    assert.equal((await cellTexts(outlinks))[0]?.[0], second);
  });

  it('opens the links view from the report, and pages through every link of the report', async () => {
    await page.goto(`${t.url}/w/${workspaceId}/reports/${reportId}`);
    await page.getByRole('heading', { name: 'Health' }).waitFor();
    await page.getByRole('region', { name: 'Links', exact: true }).getByRole('link', { name: 'All links' }).click();
    await page.waitForURL(new RegExp(`/reports/${reportId}/links$`));
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    await settled();
    await page.getByText('Links 1–50 shown, more follow').waitFor();
    await rowCount(50);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(/^\d+ links \(51–\d+ shown\)$/).waitFor();
    const total = await page.locator('.link-tally').textContent();
    // Home's 11 links and 2 images, /ok's 2 and its image, /also-links-missing's 2, and the many.
    assert.equal(total, `${13 + 3 + 2 + MANY} links (51–${13 + 3 + 2 + MANY} shown)`);
    assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), true);
  });

  it('filters the links by broken, and keeps the filter in the address through a reload', async () => {
    await page.getByLabel('Status').selectOption('broken');
    await page.waitForURL(/\?status=broken$/);
    // The 404, 410, 500, 403 and 429 pages, the other site's 404, the missing image, no such host; /missing again.
    await rowCount(9);
    await page.getByText('9 links', { exact: true }).waitFor();
    const broken = await cellTexts(page.locator('body'));
    assert.ok(broken.every((cells) => Number(cells[5]) >= 400 || cells[7] !== '–'));
    assert.ok(broken.some((cells) => cells[1] === NO_SUCH_HOST && cells[7] === 'no such host'));
    await screenshot(page, 'links-broken');
    await page.reload();
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    await settled();
    assert.equal(await page.getByLabel('Status').inputValue(), 'broken');
    await rowCount(9);
  });

  it('filters the links by the reason their target failed, and on to external links only', async () => {
    await page.getByLabel('Reason').selectOption('no-such-host');
    await page.waitForURL(/\?status=broken&reason=no-such-host$/);
    await rowCount(1);
    const [only] = await cellTexts(page.locator('body'));
    assert.deepEqual(
      [only?.[0], only?.[1], only?.[2], only?.[7]],
      [site.url('/'), NO_SUCH_HOST, 'A host that does not exist', 'no such host'],
    );
    await page.reload();
    await settled();
    assert.equal(await page.getByLabel('Reason').inputValue(), 'no-such-host');
    await rowCount(1);

    await linksView('?status=broken&target=external&kind=link');
    assert.equal(await page.getByLabel('Leads to').inputValue(), 'external');
    await rowCount(2);
    assert.deepEqual(
      (await cellTexts(page.locator('body'))).map((cells) => cells[1]).sort(),
      [`${external.origin}/missing`, NO_SUCH_HOST].sort(),
    );
    await page.getByLabel('Reason').selectOption('redirect-loop');
    await page.getByRole('heading', { name: 'No link matches' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/links$/);
    await rowCount(50);
  });

  it('downloads the broken links as CSV and as JSON', async () => {
    await linksView('?status=broken');
    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Broken links as CSV' }).click(),
    ]);
    assert.equal(csvDownload.suggestedFilename(), `loupe-broken-links-${reportId}.csv`);
    const csv = (await readFile((await csvDownload.path())!, 'utf8')).split(/\r?\n/).filter(Boolean);
    assert.equal(
      csv[0],
      'source,target,anchor,other_anchors,occurrences,kind,element,nofollow,partly_nofollow,sponsored,ugc,status,final_url,reason',
    );
    assert.equal(csv.length, 1 + 9);
    assert.ok(csv.includes(`${site.url('/')},${site.url('/missing')},Missing,"Missing, in the footer",3,link,a,,,,,404,,`));
    assert.ok(csv.some((line) => line.includes(NO_SUCH_HOST) && line.includes('no such host')));

    const [jsonDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Broken links as JSON' }).click(),
    ]);
    const json = JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')) as { links: { targetUrl: string }[] };
    assert.equal(json.links.length, 9);
  });

  it('fits a phone: the links view and a page with its links are no wider than the screen at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await linksView('?status=broken');
      await rowCount(9);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
      await screenshot(page, 'phone-links');
      await pageDetail('/missing');
      await rows(section('Links to this page')).first().waitFor();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('says so when the filters match no link, in words for the user', async () => {
    await linksView('?kind=hreflang');
    await page.getByRole('heading', { name: 'No link matches' }).waitFor();
    await linksView('?status=broken&kind=canonical');
    await page.getByRole('heading', { name: 'No broken links' }).waitFor();
  });
});
