import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { type HeldSite, startHeldSite } from '@loupe/server/src/testing/held-site.ts';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';

/**
 * The live crawl page says what the crawl is doing (issue #23, point 2): here its last page
 * is fetched and its links to another site answer only when the test lets them.
 */
describe('a crawl’s live page in a browser', () => {
  let t: TestServer;
  let held: HeldSite;
  let site: TestSite;
  let browser: Chromium;
  let page: Page;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    held = await startHeldSite();
    const paths = ['/', '/guide', '/faq'];
    const elsewhere = (n: number) => [0, 1, 2].map((k) => ({ href: held.url(`/ref/${n}/${k}`), text: `Reference ${n}.${k}` }));
    site = await startTestSite({
      pages: Object.fromEntries(
        paths.map((path, n) => [
          path,
          htmlPage({ path, title: `The ${path} page of the site with slow references`, links: [...paths, ...elsewhere(n)] }),
        ]),
      ),
      robotsTxt: 'User-agent: *\nDisallow:\n',
    });
    browser = await launchChromium();
    const [name, value] = (await setUpOwner(t, 'olga@example.test')).cookie.split('=') as [string, string];
    await browser.context.addCookies([{ name, value, url: t.url }]);
    page = await browser.context.newPage();
  });
  after(async () => {
    held?.release();
    await browser?.close();
    await site?.close();
    await held?.close();
    await t?.close();
  });

  it('shows the link checks going on after the last page, then the report', async () => {
    const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), sitemaps: false } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/crawls/${started.body.id}`);
    await page.getByText('Checking links: every page is fetched').waitFor();
    await page.getByText('3 of 3 found').waitFor();
    const links = page.getByRole('progressbar', { name: 'Links checked' });
    assert.ok(Number(await links.getAttribute('value')) < Number(await links.getAttribute('max')), 'links still being checked');
    await screenshot(page, 'crawl-checking-links');

    held.release();
    await page.getByRole('link', { name: 'Open the report' }).waitFor();
    await page.getByText('Done.').waitFor();
    const pages = page.getByRole('progressbar', { name: 'Pages fetched' });
    assert.equal(await pages.getAttribute('value'), await pages.getAttribute('max'));
    assert.equal(await links.getAttribute('value'), await links.getAttribute('max'));
  });
});
