import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { robotsAnswerSite, siteChecksExternalSite, siteChecksSite } from '../testing/site-checks-site.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

interface Issue {
  ruleId: string;
  severity: string;
  scope: string;
  pages: number;
  instances: number;
  share: number | null;
  examples: { url: string; pageId: string | null; count: number; samples: string[]; detail: string | null }[];
}

interface Report {
  id: string;
  issues: Issue[];
  health: { score: number | null };
}

interface PageFinding {
  ruleId: string;
  severity: string;
  count: number;
  samples: string[];
  detail: string | null;
}

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

for (const dialect of testDialects()) {
  describe(`site checks through a crawl (${dialect})`, () => {
    let t: TestServer;
    let s: TestSite;
    let report: Report;
    const sites: TestSite[] = [];
    let known: ReturnType<typeof siteChecksSite>['known'];

    const issue = (ruleId: string) => report.issues.find((i) => i.ruleId === ruleId);

    /** Every page a rule fired on, as paths, from the page index (not the report's five examples). */
    const firedOn = async (ruleId: string): Promise<string[]> => {
      const answer = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=${encodeURIComponent(ruleId)}&limit=100`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.headers.get('link'), null, 'one page of results holds them all');
      return answer.body.map((page: { url: string }) => pathOf(page.url)).sort();
    };

    /** The finding of a rule on one page, from the page's detail. */
    const findingOn = async (path: string, ruleId: string): Promise<PageFinding | undefined> => {
      const pages = await t.request('GET', `/api/v1/reports/${report.id}/pages?ruleId=${encodeURIComponent(ruleId)}&limit=100`);
      const page = pages.body.find((p: { url: string }) => pathOf(p.url) === path);
      assert.ok(page, `${ruleId} does not fire on ${path}`);
      const detail = await t.request('GET', `/api/v1/reports/${report.id}/pages/${page.id}`);
      assert.equal(detail.status, 200);
      return detail.body.findings.find((f: PageFinding) => f.ruleId === ruleId);
    };

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      const external = await startTestSite(siteChecksExternalSite());
      sites.push(external);
      const site = siteChecksSite({ externalOrigin: external.origin });
      known = site.known;
      s = await startTestSite(site);
      sites.push(s);
      report = await crawlToReport(t, { url: s.url('/'), maxPages: 80 });
    });
    after(async () => {
      await Promise.all(sites.map((site) => site.close()));
      await t.close();
    });

    it('crawls the whole fixture', async () => {
      const all = await t.request('GET', `/api/v1/reports/${report.id}/pages?limit=100`);
      const paths = all.body.map((page: { url: string }) => pathOf(page.url));
      for (const path of [
        ...known.deep,
        known.hreflang.missing,
        known.hreflang.movedTo,
        known.canonical.middle,
        known.sitemaps.movedTo,
        known.canonical.blockedTarget,
        known.hreflang.blockedAlternate,
      ]) {
        assert.ok(paths.includes(path), `${path} was crawled`);
      }
      assert.equal(s.requests.count(known.canonical.blockedTarget), 0, 'robots.txt kept the crawler out of /private/');
    });

    it('hreflang/missing-return: only where an indexable alternate does not list the page back', async () => {
      assert.deepEqual(await firedOn('hreflang/missing-return'), known.hreflang.withMissingReturn);
      const finding = await findingOn(known.hreflang.en, 'hreflang/missing-return');
      assert.deepEqual([finding?.count, finding?.samples, finding?.severity], [1, [s.url(known.hreflang.fr)], 'warning']);
    });

    it('hreflang/bad-target: on the page listing a 404, a noindex page, a redirect and a canonicalised page', async () => {
      assert.deepEqual(await firedOn('hreflang/bad-target'), known.hreflang.withBadTarget);
      const finding = await findingOn(known.hreflang.badTargets, 'hreflang/bad-target');
      assert.equal(finding?.count, 4);
      assert.equal(finding?.samples.length, 3);
      assert.equal(issue('hreflang/bad-target')?.severity, 'warning');
    });

    it('canonical/target-not-indexable: canonicals to a noindex page, a canonicalised page and a robots-blocked URL', async () => {
      assert.deepEqual(await firedOn('canonical/target-not-indexable'), known.canonical.withNotIndexable);
      assert.deepEqual((await findingOn(known.canonical.toBlocked, 'canonical/target-not-indexable'))?.samples, [
        s.url(known.canonical.blockedTarget),
      ]);
      assert.equal(issue('canonical/target-not-indexable')?.severity, 'error');
      // The canonical to a 404 is the other canonical check; a canonical to a fine page is neither.
      assert.deepEqual(await firedOn('canonical/target-not-200'), known.canonical.withNot200);
    });

    it("images/oversized-file: a warning just over 200 KB, an error over 1 MB, nothing at 200 KB or for another site's image", async () => {
      assert.deepEqual(await firedOn('images/oversized-file'), [...known.images.withOversized].sort());
      const heavy = await findingOn(known.images.heavy, 'images/oversized-file');
      assert.deepEqual(
        [heavy?.severity, heavy?.count, heavy?.samples, heavy?.detail],
        ['warning', 1, [s.url(known.images.justOver200k)], 'largest 200 KB'],
      );
      const huge = await findingOn(known.images.huge, 'images/oversized-file');
      assert.deepEqual([huge?.severity, huge?.count, huge?.detail], ['error', 2, 'largest 1024 KB']);
      assert.equal(issue('images/oversized-file')?.severity, 'error');
      assert.equal(issue('images/broken'), undefined);
    });

    it('links/deep: only pages more than four clicks from the start', async () => {
      assert.deepEqual(await firedOn('links/deep'), known.deep);
      assert.equal((await findingOn(known.deep[0], 'links/deep'))?.detail, '5 clicks from the start URL');
      assert.equal(issue('links/deep')?.severity, 'notice');
    });

    it('sitemaps/invalid: a named sitemap that is 404, one in the wrong namespace, one that does not parse, and a URL of another host', () => {
      const invalid = issue('sitemaps/invalid');
      assert.ok(invalid, 'sitemaps/invalid fires');
      assert.deepEqual([invalid.scope, invalid.pages, invalid.severity, invalid.instances], ['site', 0, 'error', 4]);
      assert.equal(invalid.share, 0.75, 'three of the four files read are bad');
      const [example] = invalid.examples;
      assert.equal(invalid.examples.length, 1);
      assert.equal(example.samples.length, 3);
      assert.deepEqual(
        example.samples.map((sample) => sample.split(': ')[0]),
        [known.sitemaps.missing, known.sitemaps.wrongNamespace, known.sitemaps.broken].map((path) => s.url(path)),
      );
      assert.equal(example.samples[0], `${s.url(known.sitemaps.missing)}: answered 404`);
      assert.equal(example.samples[1], `${s.url(known.sitemaps.wrongNamespace)}: wrong namespace ${known.sitemaps.wrongNamespaceUri}`);
      assert.match(example.samples[2], /: XML does not parse/);
      assert.ok(!example.samples.some((sample) => sample.startsWith(`${s.url(known.sitemaps.main)}:`)), 'the valid sitemap is not blamed');
      assert.equal(issue('sitemaps/missing'), undefined, 'named in robots.txt, so not missing');
    });

    it('sitemaps/non-200-url: the listed URLs that redirect or fail, not the fine one nor the robots-blocked one', () => {
      const non200 = issue('sitemaps/non-200-url');
      assert.ok(non200, 'sitemaps/non-200-url fires');
      assert.deepEqual([non200.scope, non200.pages, non200.severity, non200.instances], ['site', 0, 'warning', 3]);
      const [example] = non200.examples;
      assert.deepEqual(example.samples.map(pathOf).sort(), [...known.sitemaps.not200].sort());
      // Listed: the home page, the fine page, the three bad ones and the robots-blocked one
      // (counted among the listed, and as non-indexable, not as non-200).
      assert.equal(example.detail, '3 of 6 listed URLs');
      assert.equal(non200.share, 0.5);
    });

    it('robots: a readable robots.txt that leaves the site open is none of the robots checks', () => {
      for (const ruleId of ['robots/missing', 'robots/unreachable', 'robots/blocks-all']) assert.equal(issue(ruleId), undefined, ruleId);
    });

    it('robots/unreachable: a robots.txt answering 500, and not one answering 404 (that is robots/missing)', async () => {
      const failing = await startTestSite(robotsAnswerSite(500));
      sites.push(failing);
      const unreachable: Report = await crawlToReport(t, { url: failing.url('/'), maxPages: 5 });
      const found = unreachable.issues.find((i) => i.ruleId === 'robots/unreachable');
      assert.ok(found, 'robots/unreachable fires');
      assert.deepEqual([found.scope, found.pages, found.severity, found.instances], ['site', 0, 'error', 1]);
      assert.deepEqual([found.examples[0].samples, found.examples[0].detail], [[failing.url('/robots.txt')], 'answered 500']);
      for (const ruleId of ['robots/missing', 'robots/blocks-all'])
        assert.equal(
          unreachable.issues.find((i) => i.ruleId === ruleId),
          undefined,
          ruleId,
        );
      assert.equal(failing.requests.count('/'), 0, 'an unreadable robots.txt disallows everything');
      assert.equal(unreachable.health.score, null);

      const absent = await startTestSite(robotsAnswerSite(404));
      sites.push(absent);
      const missing: Report = await crawlToReport(t, { url: absent.url('/'), maxPages: 5 });
      assert.deepEqual(
        missing.issues.filter((i) => i.ruleId.startsWith('robots/')).map((i) => i.ruleId),
        ['robots/missing'],
      );
      assert.equal(absent.requests.count('/'), 1);
    });
  });
}
