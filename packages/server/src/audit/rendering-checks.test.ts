import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_CHROMIUM } from '../rendering/rendering-browser.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

/** A shell whose script writes the title, heading, text and the only links. */
const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading</title>
<script src="/app.js" defer></script></head><body><div id="app"></div></body></html>`;
const APP_JS = `document.title = 'Shop home';
document.getElementById('app').innerHTML = '<main><h1>Welcome to the shop</h1><p>' + 'Fresh bread every morning. '.repeat(30) + '</p>' +
  '<a href="/faint">Faint</a></main>';`;
/** Faint text, an icon button and a stylesheet in the head: what axe and the lab reading notice. */
const FAINT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Faint</title>
<link rel="stylesheet" href="/site.css"></head><body><main><h1>Faint</h1>
<p style="color:#d0d0d0;background:#ffffff">Barely readable text on this page.</p>
<button class="close"><svg width="10" height="10"></svg></button><a href="/">Home</a></main></body></html>`;

for (const dialect of testDialects()) {
  describe(`the checks of a rendering crawl, end to end (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let findings: Map<string, { ruleId: string; severity: string; samples: string[] }[]>;

    before(async () => {
      t = await startTestServer(dialect, {
        plans: {
          free: {
            imageProjects: 1,
            imagesPerProject: 1,
            scheduledCrawls: false,
            customRulePacks: true,
            pagesPerCrawl: 10,
            monthlyCredits: 1000,
          },
        },
        crawlAllowPrivate: true,
        rendering: { executablePath: DEFAULT_CHROMIUM, concurrency: 2, timeoutSeconds: 20, memoryBudgetBytes: 1024 ** 3 },
      });
      site = await startTestSite({
        pages: {
          '/': SHELL,
          '/app.js': { contentType: 'text/javascript', body: APP_JS },
          '/faint': FAINT,
          '/site.css': { contentType: 'text/css', body: 'body { margin: 0 }' },
        },
      });
      findings = await crawlFindings({});
    });

    /** A rendering crawl of the site with these options: each page's findings, by path. */
    async function crawlFindings(options: Record<string, unknown>) {
      const started = await t.request('POST', '/api/v1/crawls', {
        body: { url: site.url('/'), sitemaps: false, maxPages: 10, render: true, ...options },
      });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      await followCrawlEvents(t, started.body.id);
      const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
      const pages = (await t.request('GET', `/api/v1/reports/${crawl.reportId}/pages?limit=100`)).body as { id: string; url: string }[];
      const byPath: typeof findings = new Map();
      for (const page of pages) {
        const detail = await t.request('GET', `/api/v1/reports/${crawl.reportId}/pages/${page.id}`);
        byPath.set(new URL(page.url).pathname, detail.body.findings);
      }
      return byPath;
    }
    after(async () => {
      await site?.close();
      await t?.close();
    });

    const finding = (path: string, ruleId: string) => findings.get(path)?.find((candidate) => candidate.ruleId === ruleId);

    it('reports what only JavaScript put on the page', () => {
      const found = finding('/', 'indexability/js-only-content');
      assert.ok(found, JSON.stringify(findings.get('/')));
      assert.deepEqual(found.samples, [
        'words: 0 words in the raw HTML → 125 words rendered (100% only after JavaScript)',
        `1 internal link only after JavaScript, such as ${site.url('/faint')}`,
        "title: raw 'Loading' → rendered 'Shop home'",
      ]);
      assert.equal(finding('/faint', 'indexability/js-only-content'), undefined, 'a page without scripts renders as sent');
    });

    it("reports axe-core's violations with their elements, instead of the basic checks they repeat", () => {
      const contrast = finding('/faint', 'accessibility/axe-color-contrast');
      assert.ok(contrast, JSON.stringify(findings.get('/faint')?.map((f) => f.ruleId)));
      assert.match(contrast.samples[0] ?? '', /Barely readable/);
      assert.equal(finding('/faint', 'accessibility/axe-button-name')?.severity, 'warning');
      assert.equal(finding('/faint', 'accessibility-basic/button-no-name'), undefined);
    });

    it('lists the stylesheet that held back the first paint', () => {
      assert.deepEqual(finding('/faint', 'performance/render-blocking')?.samples, [site.url('/site.css')]);
    });

    it('decides a rule pack\'s dom: "rendered" conditions on the rendered DOM, and raw ones on the HTML sent', async () => {
      const rule = (id: string, dom: 'raw' | 'rendered') => ({
        id,
        title: id,
        category: 'content',
        severity: 'notice',
        when: { type: 'selector', selector: 'h1', dom, test: { op: 'exists' } },
        message: '{{path}}',
      });
      const pack = {
        schema: 'loupe.rules/v1',
        name: 'headings',
        rules: [rule('content/h1-rendered', 'rendered'), rule('content/h1-raw', 'raw')],
      };
      const saved = await t.request('POST', '/api/v1/rule-packs', { body: { name: pack.name, pack } });
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      const packId = saved.body.id;
      const project = await t.request('POST', '/api/v1/projects', {
        body: { name: 'Rendered rules', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false, render: true }, rulePackIds: [packId] },
      });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      const crawl = await t.request('POST', `/api/v1/projects/${project.body.id}/crawls`, { body: {} });
      const reportId = (await followCrawlEvents(t, crawl.body.id)).at(-1)?.reportId;
      const report = (await t.request('GET', `/api/v1/reports/${reportId}`)).body;
      const pathsOf = (ruleId: string) =>
        (report.issues.find((issue: { ruleId: string }) => issue.ruleId === ruleId)?.examples ?? [])
          .map((example: { url: string }) => new URL(example.url).pathname)
          .sort();
      // The shell's heading exists only once its script ran; the faint page sends its own.
      assert.deepEqual(pathsOf('content/h1-rendered'), ['/', '/faint']);
      assert.deepEqual(pathsOf('content/h1-raw'), ['/faint']);
    });

    it('runs no axe check when the crawl asks for accessibility: false, and the basic ones stand in', async () => {
      const without = (await crawlFindings({ accessibility: false })).get('/faint') ?? [];
      assert.deepEqual(
        without.filter((found) => found.ruleId.startsWith('accessibility/axe-')),
        [],
      );
      assert.ok(without.some((found) => found.ruleId === 'accessibility-basic/button-no-name'));
      assert.ok(
        without.some((found) => found.ruleId === 'performance/render-blocking'),
        'the page was still rendered',
      );
    });
  });
}
