import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
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

/** Images without alt on one page: more than a page of the instance list (25) holds. */
const GALLERY = 40;
const gallerySrc = (n: number) => `/img/${String(n).padStart(2, '0')}.png`;

/** Every instance of an issue in Debian's Chromium: the report's issue and the page's finding, paged (issue #24, point 2). */
describe("an issue's every instance in a browser", () => {
  let t: TestServer;
  let site: TestSite;
  let browser: Chromium;
  let page: Page;
  let reportUrl: string;
  let galleryId: string;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite', { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
    site = await startTestSite(
      {
        pages: {
          '/': htmlPage({ path: '/', title: 'A home page linking to the gallery of the test site', links: ['/gallery'] }),
          '/gallery': htmlPage({
            path: '/gallery',
            title: 'A gallery of forty images without alt text',
            images: Array.from({ length: GALLERY }, (_, n) => ({ src: gallerySrc(n), alt: null })),
          }),
        },
      },
      { record: false },
    );
    const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false });
    reportUrl = `${t.url}/w/${t.owner.workspaceId}/reports/${report.id}`;
    const pages = await t.request('GET', `/api/v1/reports/${report.id}/pages?limit=100`);
    galleryId = (pages.body as { id: string; url: string }[]).find((each) => each.url === site.url('/gallery'))!.id;
    browser = await launchChromium();
    await useSession(browser.context, t.url, await setUpOwner(t, 'olga@example.test'));
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  /** The instances shown in `within`, page after page until Next is disabled. */
  const everyInstance = async (within: Locator): Promise<string[]> => {
    const seen: string[] = [];
    for (;;) {
      const list = within.locator('.instance-list');
      await list.waitFor();
      seen.push(...(await list.locator('.instance code').allTextContents()));
      const next = within.getByRole('navigation', { name: 'Instances' }).getByRole('button', { name: 'Next' });
      if ((await next.count()) === 0 || (await next.isDisabled())) return seen;
      const first = await list.locator('.instance code').first().textContent();
      await next.click();
      // The next page is shown once its first instance differs from the one before.
      await within
        .locator('.instance-list .instance code')
        .first()
        .filter({ hasNotText: first ?? '' })
        .waitFor();
    }
  };

  it("lists all forty under the report's issue, beside its examples, a page at a time", async () => {
    await page.goto(reportUrl);
    const issue = page.locator('li.issue', { has: page.getByText('Images have no alt attribute') });
    await issue.locator('summary').click();
    await issue.getByText('Examples').waitFor();
    await issue.getByRole('button', { name: `Show every instance (${GALLERY})` }).click();
    const first = issue.locator('.instance-list');
    await first.waitFor();
    assert.equal(await first.locator('.instance').count(), 25);
    assert.match((await first.locator('.instance').first().textContent()) ?? '', new RegExp(`on ${site.url('/gallery')}`));
    await screenshot(page, 'issue-instances');
    const shown = await everyInstance(issue);
    assert.deepEqual(
      shown,
      Array.from({ length: GALLERY }, (_, n) => gallerySrc(n)),
    );
    // Back to the first page, kept without asking again.
    await issue.getByRole('button', { name: 'Previous' }).click();
    await issue
      .locator('.instance code')
      .first()
      .filter({ hasText: gallerySrc(0) })
      .waitFor();
  });

  it("lists all forty under the page's finding, where its three samples stay", async () => {
    await page.goto(`${reportUrl}/pages/${galleryId}`);
    const finding = page.locator('.finding-list > li', { has: page.getByText('Images have no alt attribute') });
    await finding.waitFor();
    assert.deepEqual(await finding.locator('.samples code').allTextContents(), [0, 1, 2].map(gallerySrc));
    await finding.getByRole('button', { name: `Show every instance (${GALLERY})` }).click();
    assert.deepEqual(
      await everyInstance(finding),
      Array.from({ length: GALLERY }, (_, n) => gallerySrc(n)),
    );
  });
});
