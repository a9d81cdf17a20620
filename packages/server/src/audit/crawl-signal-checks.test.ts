import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { probeChecksSite } from '../testing/probe-checks-site.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

interface Report {
  id: string;
  crawlId: string;
  pages: { crawled: number };
  issues: { ruleId: string; severity: string; scope: string; pages: number }[];
}

interface PageFinding {
  ruleId: string;
  severity: string;
  count: number;
  samples: string[];
  detail: string | null;
}

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const PROBE_PATH = /^\/loupe-not-found-[A-Za-z0-9_-]{12}$/;

/**
 * The checks that need what the crawl learns beside the pages (the probe of a path that
 * cannot exist, the site's robots.txt, every page's hreflang codes), through real crawls of
 * a local site, down to the report and the page detail.
 */
for (const dialect of testDialects()) {
  describe(`checks from the crawl's own signals (${dialect})`, () => {
    let t: TestServer;
    const sites: TestSite[] = [];
    const known = probeChecksSite().known;

    const site = async (options: Parameters<typeof probeChecksSite>[0] = {}) => {
      const started = await startTestSite(probeChecksSite(options));
      sites.push(started);
      return started;
    };

    /** Every page a rule fired on, as sorted paths. */
    const firedOn = async (report: Report, ruleId: string): Promise<string[]> => {
      const answer = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=${encodeURIComponent(ruleId)}&limit=100`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.map((page: { url: string }) => pathOf(page.url)).sort();
    };

    const findingOn = async (report: Report, path: string, ruleId: string): Promise<PageFinding | undefined> => {
      const pages = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=${encodeURIComponent(ruleId)}&limit=100`);
      const page = pages.body.find((p: { url: string }) => pathOf(p.url) === path);
      assert.ok(page, `${ruleId} does not fire on ${path}`);
      const detail = await t.request('GET', `/api/v1/reports/${report.id}/pages/${page.id}`);
      return detail.body.findings.find((f: PageFinding) => f.ruleId === ruleId);
    };

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
    });
    after(async () => {
      await Promise.all(sites.map((s) => s.close()));
      await t.close();
    });

    describe('a crawl that ignores robots.txt', () => {
      let s: TestSite;
      let report: Report;
      before(async () => {
        s = await site();
        report = await crawlToReport(t, { url: s.url('/'), maxPages: 40, respectRobots: false });
      });

      it('asks one random path that cannot exist, and neither reports nor charges it as a page', async () => {
        const probes = s.requests.paths().filter((path) => PROBE_PATH.test(path));
        assert.equal(probes.length, 1, JSON.stringify(s.requests.paths()));
        const all = await t.request('GET', `/api/v1/reports/${report.id}/pages?limit=100`);
        const paths = all.body.map((page: { url: string }) => pathOf(page.url));
        assert.ok(!paths.some((path: string) => PROBE_PATH.test(path)), 'the probe is no page of the report');
        const crawl = await t.request('GET', `/api/v1/crawls/${report.crawlId}`);
        assert.equal(crawl.body.creditsCharged, paths.length, 'one credit per page of the report, none for the probe');
        assert.equal(report.pages.crawled, paths.length);
      });

      it("status/soft-404: a linked URL answering the probe's text, and a page whose h1 says it is gone", async () => {
        assert.deepEqual(await firedOn(report, 'status/soft-404'), [...known.soft404.withSoft404].sort());
        const missing = await findingOn(report, known.soft404.linkedMissing, 'status/soft-404');
        assert.equal(missing?.detail, 'same text as the answer to an address that does not exist');
        assert.match(pathOf(missing?.samples[0] ?? 'http://x/'), PROBE_PATH);
        assert.equal(missing?.severity, 'warning');
        assert.equal((await findingOn(report, known.soft404.soldOut, 'status/soft-404'))?.detail, 'the first h1 reads as "not found"');
      });

      it('indexability/noindex-unseen: the disallowed pages that say noindex, in meta or header; not the disallowed indexable page nor the allowed noindex one', async () => {
        assert.equal(s.requests.count(known.robots.plain), 1, 'fetched: robots.txt was not obeyed');
        assert.deepEqual(await firedOn(report, 'indexability/noindex-unseen'), known.robots.withNoindexUnseen);
        const header = await findingOn(report, known.robots.headerNoindex, 'indexability/noindex-unseen');
        assert.deepEqual(
          [header?.samples, header?.detail, header?.severity],
          [['X-Robots-Tag: noindex'], 'robots.txt disallows it for all crawlers (*) and Googlebot', 'notice'],
        );
        const issue = report.issues.find((i) => i.ruleId === 'indexability/noindex-unseen');
        assert.deepEqual([issue?.scope, issue?.pages], ['site', 2]);
      });

      it('hreflang/conflicting-codes: a page the site calls two languages, and one whose own code contradicts its <html lang>', async () => {
        assert.deepEqual(await firedOn(report, 'hreflang/conflicting-codes'), [...known.hreflang.withConflictingCodes].sort());
        const fr = await findingOn(report, known.hreflang.fr, 'hreflang/conflicting-codes');
        assert.deepEqual(
          [fr?.samples, fr?.detail, fr?.severity],
          [['hreflang="fr" from itself', `hreflang="es" from ${s.url(known.hreflang.en)}`], 'referenced as fr and es', 'warning'],
        );
        const it = await findingOn(report, known.hreflang.it, 'hreflang/conflicting-codes');
        assert.equal(it?.detail, 'its own hreflang is it, its <html lang> en');
      });
    });

    describe('a crawl that obeys robots.txt', () => {
      it('never requests a disallowed URL, so it cannot see their noindex', async () => {
        const s = await site();
        const report: Report = await crawlToReport(t, { url: s.url('/'), maxPages: 40 });
        for (const path of [known.robots.metaNoindex, known.robots.headerNoindex, known.robots.plain])
          assert.equal(s.requests.count(path), 0, path);
        assert.deepEqual(await firedOn(report, 'indexability/noindex-unseen'), []);
        assert.deepEqual(await firedOn(report, 'status/soft-404'), [...known.soft404.withSoft404].sort());
      });

      it('sees them where robots.txt lets LoupeBot in while it keeps every other crawler out', async () => {
        const s = await site({ loupeBotGroup: true });
        const report: Report = await crawlToReport(t, { url: s.url('/'), maxPages: 40 });
        assert.equal(s.requests.count(known.robots.plain), 1);
        assert.deepEqual(await firedOn(report, 'indexability/noindex-unseen'), known.robots.withNoindexUnseen);
      });
    });

    it('obeys robots.txt for the probe too: kept off it, the crawl compares no page with it', async () => {
      const s = await startTestSite({ ...probeChecksSite(), robotsTxt: 'User-agent: *\nDisallow: /loupe-not-found-\n' });
      sites.push(s);
      const report: Report = await crawlToReport(t, { url: s.url('/'), maxPages: 40 });
      assert.deepEqual(
        s.requests.paths().filter((path) => PROBE_PATH.test(path)),
        [],
      );
      assert.deepEqual(await firedOn(report, 'status/soft-404'), [known.soft404.soldOut]);
    });

    it('robots/invalid: a misspelt Disallow is reported for the site, and the URLs it meant to hide are crawled', async () => {
      const s = await startTestSite({ ...probeChecksSite(), robotsTxt: 'User-agent: *\nDissallow: /private/\nSitemap /sitemap.xml\n' });
      sites.push(s);
      const report = await crawlToReport(t, { url: s.url('/'), maxPages: 40 });
      const invalid = report.issues.find((i: { ruleId: string }) => i.ruleId === 'robots/invalid');
      assert.ok(invalid, JSON.stringify(report.issues.map((i: { ruleId: string }) => i.ruleId)));
      assert.deepEqual([invalid.scope, invalid.pages, invalid.severity, invalid.share], ['site', 0, 'warning', 1]);
      assert.deepEqual(invalid.examples[0].samples, [
        'line 2: unknown directive "Dissallow"',
        'line 3: no colon in "Sitemap /sitemap.xml"',
      ]);
      assert.equal(s.requests.count(known.robots.plain), 1);
      assert.deepEqual(await firedOn(report, 'indexability/noindex-unseen'), [], 'nothing is disallowed');
    });

    it('audits one URL against the probe too', async () => {
      const s = await site();
      const report: Report = await crawlToReport(t, { url: s.url(known.soft404.linkedMissing), mode: 'page' });
      assert.deepEqual(await firedOn(report, 'status/soft-404'), [known.soft404.linkedMissing]);
      assert.equal(s.requests.paths().filter((path) => PROBE_PATH.test(path)).length, 1);
    });

    it('lists the new checks in the catalog endpoint at their catalog severity and scope', async () => {
      const rules = await t.request('GET', '/api/v1/audit-rules');
      const byId = new Map(rules.body.map((rule: { id: string; severity: string; scope: string; weight: number }) => [rule.id, rule]));
      const expected = {
        'status/soft-404': ['warning', 'page', 0.15],
        'redirects/http-not-redirected': ['warning', 'site', 0.15],
        'indexability/noindex-unseen': ['notice', 'site', 0.02],
        'hreflang/conflicting-codes': ['warning', 'site', 0.15],
        'robots/invalid': ['warning', 'site', 0.15],
      };
      for (const [id, [severity, scope, weight]] of Object.entries(expected)) {
        const rule = byId.get(id) as { severity: string; scope: string; weight: number } | undefined;
        assert.deepEqual([rule?.severity, rule?.scope, rule?.weight], [severity, scope, weight], id);
      }
    });
  });
}
