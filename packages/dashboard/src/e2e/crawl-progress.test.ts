import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { type HeldSite, startHeldSite } from '@loupe/server/src/testing/held-site.ts';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { loopbackResolver } from '@loupe/server/src/testing/test-resolver.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { type SiteDefinition, startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { useSession } from './sign-in.ts';

/**
 * The live crawl page says what the crawl is doing (issue #23, point 2), its errors so far and
 * its last requests (issue #24, point 6): here its pages are fetched and its links to another
 * site answer only when the test lets them.
 */
describe('a crawl’s live page in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  const closing: (() => Promise<void>)[] = [];

  /** A site of `pages` (built with the held site, to link to it) and the held site, closed after the tests. */
  async function startSites(pages: (held: HeldSite) => SiteDefinition['pages']): Promise<{ held: HeldSite; site: TestSite }> {
    const held = await startHeldSite();
    closing.push(async () => (held.release(), held.close()));
    const site = await startTestSite({ pages: pages(held), robotsTxt: 'User-agent: *\nDisallow:\n' });
    closing.push(() => site.close());
    return { held, site };
  }

  before(async () => {
    await ensureDashboardBuilt();
    // Every name but *.test is unknown: a link to nowhere.invalid fails as no such host.
    t = await startTestServer('sqlite', { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
    browser = await launchChromium();
    await useSession(browser.context, t.url, await setUpOwner(t, 'olga@example.test'));
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    for (const close of closing.reverse()) await close();
    await t?.close();
  });

  it('shows the link checks going on after the last page, then the report', async () => {
    const paths = ['/', '/guide', '/faq'];
    const { held, site } = await startSites((held) => {
      const elsewhere = (n: number) => [0, 1, 2].map((k) => ({ href: held.url(`/ref/${n}/${k}`), text: `Reference ${n}.${k}` }));
      return Object.fromEntries(
        paths.map((path, n) => [
          path,
          htmlPage({ path, title: `The ${path} page of the site with slow references`, links: [...paths, ...elsewhere(n)] }),
        ]),
      );
    });
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

  it('shows the errors so far by kind and the last requests with their answer, as they come', async () => {
    // Two pages link to pages that are not there, a host that does not exist and the held site.
    const { held, site } = await startSites((held) => {
      const links = (n: number) => ['/', '/guide', '/moved-away', '/never-was', 'http://nowhere.invalid/docs', held.url(`/slow/${n}`)];
      return {
        '/': htmlPage({ path: '/', title: 'The home page of a site with a few broken links', links: links(0) }),
        '/guide': htmlPage({ path: '/guide', title: 'The guide of a site with a few broken links', links: links(1) }),
      };
    });
    const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), sitemaps: false } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/crawls/${started.body.id}`);
    await page.getByText('Checking links: every page is fetched').waitFor();
    const errors = page.getByRole('list', { name: 'Errors so far' });
    await errors.getByText('2 Client errors (4xx)').waitFor();
    await errors.getByText('1 No such host').waitFor();
    const requests = page.getByRole('table', { name: 'Last requests, newest first' });
    const row = (text: string) => requests.getByRole('row').filter({ hasText: text });
    /** The row's kind and answer: `['Page', '404']`. */
    const answer = async (text: string) => (await row(text).first().getByRole('cell').allTextContents()).slice(1, 3);
    assert.deepEqual(await answer('/moved-away'), ['Page', '404']);
    assert.deepEqual(await answer('nowhere.invalid'), ['Link', 'No such host']);
    assert.equal(await row('/slow/').count(), 0, 'the held links have not answered yet');
    await screenshot(page, 'crawl-errors-and-requests');

    held.release();
    await page.getByText('Done.').waitFor();
    await row('/slow/0').first().waitFor();
    assert.deepEqual(await answer('/slow/0'), ['Link', '200']);
    assert.deepEqual(await errors.getByRole('listitem').allTextContents(), ['2 Client errors (4xx)', '1 No such host']);
  });
});
