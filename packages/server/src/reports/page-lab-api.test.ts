import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import sharp from 'sharp';
import { labReading, seedRendersAndRebuild } from '../testing/seeded-renders.ts';
import { crawlToReport, followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const page = (title: string, links: string[] = []) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} of the lab site</title></head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</body></html>`;

for (const dialect of testDialects()) {
  describe(`report lab readings and screenshots (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let reportId: string;
    let rawReportId: string;
    const ids: Record<string, string> = {};
    let jpeg: Buffer;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite({
        pages: {
          '/': page('Home', ['/slow', '/shifty', '/broken']),
          '/slow': page('Slow'),
          '/shifty': page('Shifty'),
          '/broken': page('Broken'),
        },
      });
      jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#3a6' } })
        .jpeg()
        .toBuffer();
      rawReportId = (await crawlToReport(t, { url: site.url('/'), maxPages: 10, sitemaps: false })).id;
      const rendered = await crawlToReport(t, { url: site.url('/'), maxPages: 10, sitemaps: false, render: true });
      const pages = await t.request('GET', `/api/v1/reports/${rendered.id}/pages`);
      for (const p of pages.body) ids[new URL(p.url).pathname] = p.id;
      reportId = await seedRendersAndRebuild(t, rendered.crawlId, [
        { urlId: ids['/'] as string, lab: labReading({ lcpMs: 1200, cls: 0.02, tbtMs: 50, ttfbMs: 100 }), screenshot: jpeg },
        { urlId: ids['/slow'] as string, lab: labReading({ lcpMs: 5200, cls: 0.05, tbtMs: 700, ttfbMs: 2000 }), screenshot: null },
        { urlId: ids['/shifty'] as string, lab: labReading({ lcpMs: 3000, cls: 0.3, tbtMs: 300, ttfbMs: 900 }), screenshot: jpeg },
        { urlId: ids['/broken'] as string, lab: labReading({ lcpMs: 0, cls: 0, tbtMs: 0, ttfbMs: 0 }, 'timeout'), screenshot: null },
      ]);
    });
    after(async () => {
      await site?.close();
      await t?.close();
    });

    it("reports what a real rendering crawl measured: each page's reading, its screenshot and the site's spread", async () => {
      const report = await crawlToReport(t, { url: site.url('/'), maxPages: 10, sitemaps: false, render: true });
      assert.equal(report.lab.pages, 4);
      assert.equal(report.lab.rendered, 4);
      assert.equal(report.lab.metrics.cls.measured, 4);
      assert.ok(report.lab.transfer.byKind.document.requests >= 1);
      const pages = await t.request('GET', `/api/v1/reports/${report.id}/pages?sort=lcpMs&order=desc`);
      const home = pages.body.find((p: { url: string }) => p.url === site.url('/'));
      const detail = await t.request('GET', `/api/v1/reports/${report.id}/pages/${home.id}`);
      assert.equal(detail.body.lab.error, null);
      assert.equal(detail.body.lab.metrics.cls, home.cls);
      assert.equal(detail.body.hasScreenshot, true);
      const shot = await fetch(`${t.url}/api/v1/reports/${report.id}/pages/${home.id}/screenshot`, {
        headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
      });
      assert.equal(shot.status, 200);
      assert.equal((await sharp(Buffer.from(await shot.arrayBuffer())).metadata()).format, 'jpeg');
    });

    it("shows a rendered page's lab reading and that it has a screenshot", async () => {
      const answer = await t.request('GET', `/api/v1/reports/${reportId}/pages/${ids['/shifty']}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.hasScreenshot, true);
      assert.equal(answer.body.lab.metrics.lcpMs, 3000);
      assert.equal(answer.body.lab.metrics.cls, 0.3);
      assert.equal(answer.body.lab.transfer.byKind.script.bytes, 15_000);
      const slow = await t.request('GET', `/api/v1/reports/${reportId}/pages/${ids['/slow']}`);
      assert.equal(slow.body.hasScreenshot, false);
    });

    it('answers a page of a crawl that did not render with no lab and no screenshot', async () => {
      const pages = await t.request('GET', `/api/v1/reports/${rawReportId}/pages`);
      const detail = await t.request('GET', `/api/v1/reports/${rawReportId}/pages/${pages.body[0].id}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.lab, null);
      assert.equal(detail.body.hasScreenshot, false);
      const report = await t.request('GET', `/api/v1/reports/${rawReportId}`);
      assert.equal(report.body.lab, null);
      const shot = await t.request('GET', `/api/v1/reports/${rawReportId}/pages/${pages.body[0].id}/screenshot`);
      assert.equal(shot.status, 404);
      assert.equal(shot.body.code, 'not_found');
    });

    it('serves the screenshot as a JPEG shown in place', async () => {
      const response = await fetch(`${t.url}/api/v1/reports/${reportId}/pages/${ids['/']}/screenshot`, {
        headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/jpeg');
      assert.match(response.headers.get('content-disposition') ?? '', /^inline;/);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), jpeg);
      const none = await t.request('GET', `/api/v1/reports/${reportId}/pages/${ids['/slow']}/screenshot`);
      assert.equal(none.status, 404);
    });

    it("lets a viewer see it, refuses a key without reports:read, and answers 404 to another workspace and for another report's page", async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      const shot = `/api/v1/reports/${reportId}/pages/${ids['/']}/screenshot`;
      assert.equal((await t.request('GET', shot, { key: viewer })).status, 200);
      const narrow = await t.request('POST', '/api/v1/keys', { body: { name: 'crawls only', scopes: ['crawls:write'] } });
      assert.equal(narrow.status, 201, JSON.stringify(narrow.body));
      const refused = await t.request('GET', shot, { key: narrow.body.key });
      assert.equal(refused.status, 403, 'a key without reports:read, like the page detail');
      const other = await t.createWorkspace();
      const fromOther = await t.request('GET', shot, { key: other.key, team: other.workspaceId });
      assert.equal(fromOther.status, 404);
      assert.equal(fromOther.body.code, 'not_found');
      assert.equal(
        (await t.request('GET', `/api/v1/reports/${reportId}/pages/${ids['/']}`, { key: other.key, team: other.workspaceId })).status,
        404,
      );
      // The other workspace's key naming ours is refused before anything is looked up.
      assert.equal((await t.request('GET', shot, { key: other.key })).status, 403);
      const rawPages = await t.request('GET', `/api/v1/reports/${rawReportId}/pages`);
      const crossed = await t.request('GET', `/api/v1/reports/${rawReportId}/pages/${ids['/']}/screenshot`);
      assert.equal(crossed.status, 404, 'a page id of another report');
      const reversed = await t.request('GET', `/api/v1/reports/${reportId}/pages/${rawPages.body[0].id}/screenshot`);
      assert.equal(reversed.status, 404);
    });

    it('answers the screenshot over MCP as image content', async () => {
      const client = new Client({ name: 'loupe-screenshot-test', version: '1.0.0' });
      const requestInit = { headers: { authorization: `Bearer ${t.owner.key}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp?toolsets=screenshots', t.url), { requestInit }));
      try {
        const answer = await client.callTool({ name: 'get_report_page_screenshot', arguments: { reportId, pageId: ids['/'] } });
        assert.equal(answer.isError, undefined, JSON.stringify(answer));
        assert.deepEqual(answer.content, [{ type: 'image', mimeType: 'image/jpeg', data: jpeg.toString('base64') }]);
      } finally {
        await client.close();
      }
    });

    it('serves it through a share link until the report is unshared', async () => {
      const share = await t.request('POST', `/api/v1/reports/${reportId}/share`);
      assert.equal(share.status, 200, JSON.stringify(share.body));
      const path = `/api/v1/shared/${share.body.token}/pages/${ids['/shifty']}/screenshot`;
      const response = await fetch(t.url + path);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/jpeg');
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), jpeg);
      const rawPages = await t.request('GET', `/api/v1/reports/${rawReportId}/pages`);
      const otherPage = await t.request('GET', `/api/v1/shared/${share.body.token}/pages/${rawPages.body[0].id}/screenshot`, { key: null });
      assert.equal(otherPage.status, 404, "a page of a report that is not shared, through this report's token");
      const shared = await t.request('GET', `/api/v1/shared/${share.body.token}`, { key: null });
      assert.equal(shared.body.lab.pages, 4);
      const publicPage = await t.request('GET', `/r/${share.body.token}`, { key: null });
      assert.match(publicPage.body, /<h2 id="lab">Lab metrics<\/h2>/);
      const linkTo = (pageId: string | undefined) =>
        `<a href="/api/v1/shared/${share.body.token}/pages/${pageId}/screenshot">screenshot</a>`;
      assert.ok(publicPage.body.includes(linkTo(ids['/shifty'])), 'a page with a screenshot links it');
      assert.ok(!publicPage.body.includes(linkTo(ids['/slow'])), 'a page without one does not');
      assert.equal((await fetch(`${t.url}/api/v1/shared/${share.body.token}/pages/${ids['/shifty']}/screenshot`)).status, 200);
      assert.match(
        publicPage.body,
        /Largest contentful paint \(LCP\)<\/th><td class="lab-value lab-needs-improvement">3\.0 s<\/td><td class="lab-value lab-poor">5\.2 s<\/td>/,
      );
      assert.equal((await t.request('DELETE', `/api/v1/reports/${reportId}/share`)).status, 200);
      const revoked = await t.request('GET', path, { key: null });
      assert.equal(revoked.status, 404);
      assert.equal(revoked.body.code, 'not_found');
    });

    it("spreads the site's readings on Google's thresholds", async () => {
      const { body: report } = await t.request('GET', `/api/v1/reports/${reportId}`);
      assert.equal(report.lab.pages, 4);
      assert.equal(report.lab.rendered, 3);
      assert.equal(report.lab.timeouts, 1);
      assert.equal(report.lab.failed, 0);
      assert.deepEqual(report.lab.metrics.lcpMs, { measured: 3, p50: 3000, p75: 5200, p90: 5200, good: 1, needsImprovement: 1, poor: 1 });
      assert.deepEqual(report.lab.metrics.cls, { measured: 3, p50: 0.05, p75: 0.3, p90: 0.3, good: 2, needsImprovement: 0, poor: 1 });
      assert.equal(report.lab.metrics.tbtMs.poor, 1);
      assert.equal(report.lab.metrics.ttfbMs.needsImprovement, 1);
      assert.deepEqual(report.lab.transfer.byKind.script, { requests: 3, bytes: 15_000 });
      assert.equal(report.lab.transfer.bytes, 20_000);
    });

    it('sorts and filters the page index by lab metric', async () => {
      const byLcp = await t.request('GET', `/api/v1/reports/${reportId}/pages?sort=lcpMs&order=desc`);
      assert.deepEqual(
        byLcp.body.map((p: { url: string }) => new URL(p.url).pathname),
        ['/slow', '/shifty', '/', '/broken'],
      );
      assert.equal(byLcp.body[0].lcpMs, 5200);
      assert.equal(byLcp.body[3].lcpMs, null, 'a page that timed out has no reading');
      const poorCls = await t.request('GET', `/api/v1/reports/${reportId}/pages?lab=cls:poor`);
      assert.deepEqual(
        poorCls.body.map((p: { url: string }) => new URL(p.url).pathname),
        ['/shifty'],
      );
      const middling = await t.request('GET', `/api/v1/reports/${reportId}/pages?lab=lcpMs:needs-improvement`);
      assert.deepEqual(
        middling.body.map((p: { url: string }) => new URL(p.url).pathname),
        ['/shifty'],
      );
      const unknown = await t.request('GET', `/api/v1/reports/${reportId}/pages?lab=cls`);
      assert.equal(unknown.status, 400);
      assert.ok(unknown.body.details.fieldErrors.lab);
    });

    it('diffs the lab p75s of two reports, null on the side that did not render', async () => {
      const diff = await t.request('GET', `/api/v1/diff?old=${rawReportId}&new=${reportId}`);
      assert.equal(diff.status, 200, JSON.stringify(diff.body));
      assert.deepEqual(diff.body.lab.lcpMs, { before: null, after: 5200, delta: null });
      assert.deepEqual(diff.body.lab.cls, { before: null, after: 0.3, delta: null });
      const back = await t.request('GET', `/api/v1/diff?old=${reportId}&new=${rawReportId}`);
      assert.deepEqual(back.body.lab.tbtMs, { before: 700, after: null, delta: null });
      const real = await crawlToReport(t, { url: site.url('/'), maxPages: 10, sitemaps: false, render: true });
      const moved = await t.request('GET', `/api/v1/diff?old=${reportId}&new=${real.id}`);
      const { before, after, delta } = moved.body.lab.cls;
      assert.equal(before, 0.3);
      assert.equal(after, real.lab.metrics.cls.p75);
      assert.equal(delta, Math.round((after - before) * 1e4) / 1e4);
      const none = await t.request('GET', `/api/v1/diff?old=${rawReportId}&new=${rawReportId}`);
      assert.equal(none.body.lab, null);
    });

    it("follows the lab p75s over a project's reports", async () => {
      const project = await t.request('POST', '/api/v1/projects', {
        body: { name: 'Lab site', siteUrl: site.url('/'), crawlDefaults: { render: true, sitemaps: false, maxPages: 10 } },
      });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      for (const body of [{ render: false }, {}]) {
        const crawl = await t.request('POST', `/api/v1/projects/${project.body.id}/crawls`, { body });
        assert.equal(crawl.status, 202, JSON.stringify(crawl.body));
        await followCrawlEvents(t, crawl.body.id);
      }
      const trend = await t.request('GET', `/api/v1/projects/${project.body.id}/trend`);
      assert.equal(trend.status, 200, JSON.stringify(trend.body));
      const [raw, rendered] = trend.body.points;
      assert.equal(raw.lab, null);
      const report = await t.request('GET', `/api/v1/reports/${rendered.reportId}`);
      assert.deepEqual(rendered.lab, {
        lcpMs: report.body.lab.metrics.lcpMs.p75,
        cls: report.body.lab.metrics.cls.p75,
        tbtMs: report.body.lab.metrics.tbtMs.p75,
        ttfbMs: report.body.lab.metrics.ttfbMs.p75,
      });
      assert.equal(typeof rendered.lab.cls, 'number');
    });

    it('exports the lab metrics with each page', async () => {
      const csv = await t.request('GET', `/api/v1/reports/${reportId}/export?format=csv`);
      const lines = (csv.body as string).split('\r\n');
      assert.ok(lines[0]?.endsWith(',lcp_ms,cls,tbt_ms'));
      const slowRow = lines.find((line) => line.startsWith(site.url('/slow')));
      assert.ok(slowRow?.endsWith(',5200,0.05,700'), slowRow);
      const json = await t.request('GET', `/api/v1/reports/${reportId}/export?format=json`);
      const shifty = json.body.pages.find((p: { url: string }) => p.url === site.url('/shifty'));
      assert.equal(shifty.lcpMs, 3000);
      assert.equal(json.body.report.lab.pages, 4);
    });
  });
}
