import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brokenLinksSite, duplicatesSite, externalSite, orphansSite, redirectsSite, robotsSite } from '../testing/fixture-sites.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

interface Issue {
  ruleId: string;
  severity: string;
  pages: number;
  instances: number;
  examples: { url: string; pageId: string | null; samples: string[]; detail: string | null }[];
}

/** The URLs (as paths) a rule fired on, from the report's examples (at most five). */
function pathsOf(report: { issues: Issue[] }, ruleId: string): string[] {
  const issue = report.issues.find((i) => i.ruleId === ruleId);
  return (issue?.examples ?? []).map((example) => new URL(example.url).pathname + new URL(example.url).search).sort();
}

function issue(report: { issues: Issue[] }, ruleId: string): Issue | undefined {
  return report.issues.find((i) => i.ruleId === ruleId);
}

for (const dialect of testDialects()) {
  describe(`reports API (${dialect})`, () => {
    let t: TestServer;
    let external: TestSite;
    const sites: TestSite[] = [];
    const site = async (definition: Parameters<typeof startTestSite>[0]) => {
      const started = await startTestSite(definition);
      sites.push(started);
      return started;
    };

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      external = await site(externalSite());
    });
    after(async () => {
      await Promise.all(sites.map((s) => s.close()));
      await t.close();
    });

    describe('checks over a crawled site', () => {
      it('finds broken internal and external links and images on the pages that hold them, not on clean ones', async () => {
        const definition = brokenLinksSite({ externalOrigin: external.origin });
        const s = await site(definition);
        const report = await crawlToReport(t, { url: s.url('/'), maxPages: 30 });
        const { known } = definition;
        assert.deepEqual(pathsOf(report, 'links/broken-internal'), [...known.withBrokenInternal].sort());
        assert.equal(issue(report, 'links/broken-internal')?.examples.find((e) => e.url === s.url('/'))?.samples.length, 3);
        assert.deepEqual(pathsOf(report, 'links/broken-external'), ['/']);
        assert.deepEqual(pathsOf(report, 'images/broken'), ['/']);
        // 403 and 429 are unverifiable, not broken; /ok holds only working links.
        for (const example of issue(report, 'links/broken-internal')!.examples) {
          assert.ok(!example.samples.some((url) => url.endsWith(known.forbidden) || url.endsWith(known.rateLimited)));
        }
        assert.deepEqual(pathsOf(report, 'status/client-error').sort(), [known.gone, known.missing].sort());
        assert.deepEqual(pathsOf(report, 'status/server-error'), [known.serverError]);
        assert.ok(report.health.score !== null && report.health.score < 90, `score ${report.health.score}`);
        assert.equal(report.completeness, 'complete');
      });

      it('follows redirect chains and loops from the pages that link into them', async () => {
        const definition = redirectsSite({ externalOrigin: external.origin });
        const s = await site(definition);
        const report = await crawlToReport(t, { url: s.url('/'), maxPages: 40 });
        assert.deepEqual(pathsOf(report, 'redirects/linked-redirect'), ['/']);
        const chain = issue(report, 'redirects/chain');
        assert.equal(chain?.severity, 'error', 'the five-hop chain makes it an error');
        assert.equal(
          chain?.instances,
          2,
          `the two-hop and the five-hop chain, not ${JSON.stringify(chain?.examples.map((e) => [new URL(e.url).pathname, e.detail]))}`,
        );
        const loops = issue(report, 'redirects/loop')
          ?.examples[0]?.samples.map((url) => new URL(url).pathname)
          .sort();
        assert.deepEqual(loops, ['/endless/1', '/loop/a', '/self-loop'], 'a → b → a, the self loop, and a chain past ten hops');
        assert.ok(report.pages.redirects >= 9);
        assert.ok(pathsOf(report, 'redirects/redirected-url').length > 0);
      });

      it('finds duplicate titles, descriptions and content among indexable pages only, and canonicals to missing pages', async () => {
        const definition = duplicatesSite();
        const s = await site(definition);
        const report = await crawlToReport(t, { url: s.url('/'), maxPages: 40 });
        const { known } = definition;
        assert.deepEqual(pathsOf(report, 'titles/duplicate'), [...known.duplicateTitle].sort());
        assert.deepEqual(pathsOf(report, 'descriptions/duplicate'), [...known.duplicateDescription].sort());
        assert.deepEqual(pathsOf(report, 'content/duplicate'), [...known.duplicateContent].sort());
        // The near copy is within a few bits of the original and its exact copy; the printable
        // version is canonicalised away, the other pages are far.
        assert.deepEqual(
          pathsOf(report, 'content/near-duplicate'),
          [...new Set([...known.duplicateContent, ...known.nearDuplicate])].sort(),
        );
        assert.deepEqual(pathsOf(report, 'canonical/target-not-200'), [known.canonicalToMissing.page]);
        assert.deepEqual(pathsOf(report, 'titles/missing'), [known.emptyTitle, known.missingTitle].sort());
        assert.ok(pathsOf(report, 'indexability/noindex').includes(known.sameTitleExcluded[0]));
      });

      it('finds orphan pages: in the sitemap, linked from nowhere, indexable', async () => {
        const definition = orphansSite();
        const s = await site(definition);
        const report = await crawlToReport(t, { url: s.url('/'), maxPages: 20 });
        assert.deepEqual(pathsOf(report, 'links/orphan'), [...definition.known.orphans].sort());
        assert.equal(issue(report, 'sitemaps/missing'), undefined);
        assert.equal(issue(report, 'robots/missing'), undefined);
      });

      it('reports links into robots.txt-blocked URLs and noindex pages the sitemap lists', async () => {
        const definition = robotsSite({ crawlDelay: 0 });
        const s = await site(definition);
        const report = await crawlToReport(t, { url: s.url('/'), maxPages: 30 });
        assert.deepEqual(pathsOf(report, 'indexability/blocked-by-robots'), ['/']);
        assert.ok(report.pages.blockedByRobots >= 3);
        // The noindex page and the disallowed page the sitemap lists.
        assert.deepEqual(
          issue(report, 'sitemaps/non-indexable-url')
            ?.examples[0]?.samples.map((url) => new URL(url).pathname)
            .sort(),
          ['/noindex-meta', '/private/listed-in-sitemap'],
        );
        assert.equal(issue(report, 'robots/blocks-all'), undefined);
      });

      it('reports a site without robots.txt or sitemap, and one whose robots.txt blocks everything with no score', async () => {
        const bare = await site({
          pages: { '/': '<!doctype html><html lang="en"><title>A bare site with one page only</title><h1>Bare</h1>' },
        });
        const report = await crawlToReport(t, { url: bare.url('/'), maxPages: 5 });
        assert.ok(issue(report, 'robots/missing'));
        assert.ok(issue(report, 'sitemaps/missing'));
        assert.equal(issue(report, 'sitemaps/missing')?.pages, 0, 'a site-level finding');

        const closed = await site({ pages: { '/': '<!doctype html><title>Closed</title>' }, robotsTxt: 'User-agent: *\nDisallow: /\n' });
        const blocked = await crawlToReport(t, { url: closed.url('/'), maxPages: 5 });
        assert.ok(issue(blocked, 'robots/blocks-all'));
        assert.equal(blocked.health.score, null);
        assert.equal(blocked.health.unscoredReason, 'no-html-page');
      });
    });

    it('lists the audit checks with their weights, at least 50 and one per rule id', async () => {
      const rules = await t.request('GET', '/api/v1/audit-rules');
      assert.equal(rules.status, 200);
      assert.ok(rules.body.length >= 50, `${rules.body.length} checks`);
      const ids = rules.body.map((rule: { id: string }) => rule.id);
      assert.equal(new Set(ids).size, ids.length);
      const blocksAll = rules.body.find((rule: { id: string }) => rule.id === 'robots/blocks-all');
      assert.deepEqual([blocksAll.severity, blocksAll.weight, blocksAll.scope], ['error', 0.9, 'site']);
      assert.equal(rules.body.find((rule: { id: string }) => rule.id === 'titles/too-long').weight, 0.15);
    });

    describe('reading, sharing, exporting and deleting', () => {
      let reportId: string;
      let s: TestSite;
      before(async () => {
        s = await site(brokenLinksSite({ externalOrigin: external.origin }));
        reportId = (await crawlToReport(t, { url: s.url('/'), maxPages: 30 })).id;
      });

      it('lists reports newest first with paging, and filters by project', async () => {
        const first = await t.request('GET', '/api/v1/reports?limit=2');
        assert.equal(first.status, 200);
        assert.equal(first.body.length, 2);
        const rest = await t.request('GET', nextPage(first)!);
        assert.ok(rest.body.length >= 1);
        const ids = [...first.body, ...rest.body].map((r: { id: string }) => r.id);
        assert.deepEqual(ids, [...ids].sort().reverse());
        assert.equal(first.body[0].id, reportId);
        const filtered = await t.request('GET', `/api/v1/reports?projectId=${crypto.randomUUID()}`);
        assert.deepEqual(filtered.body, []);
      });

      it('pages the page index in any sort order without losing or repeating a page', async () => {
        for (const [sort, order] of [
          ['score', 'asc'],
          ['url', 'desc'],
          ['errors', 'desc'],
          ['status', 'asc'],
        ] as const) {
          const seen: { id: string; value: unknown }[] = [];
          for (let path: string | undefined = `/api/v1/reports/${reportId}/pages?limit=3&sort=${sort}&order=${order}`; path; ) {
            const answer: HttpAnswer = await t.request('GET', path);
            assert.equal(answer.status, 200, JSON.stringify(answer.body));
            seen.push(...answer.body.map((p: Record<string, unknown>) => ({ id: p.id as string, value: p[sort] })));
            path = nextPage(answer);
          }
          assert.equal(new Set(seen.map((p) => p.id)).size, seen.length);
          const all = await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=100`);
          assert.equal(seen.length, all.body.length);
          const values = seen.map((p) => (p.value === null ? -1 : p.value)) as (number | string)[];
          const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          assert.deepEqual(values, order === 'asc' ? sorted : sorted.reverse(), `${sort} ${order}`);
        }
      });

      it('filters the page index by rule and by status class', async () => {
        const broken = await t.request('GET', `/api/v1/reports/${reportId}/pages?ruleId=links/broken-internal`);
        assert.deepEqual(broken.body.map((p: { url: string }) => new URL(p.url).pathname).sort(), ['/', '/also-links-missing']);
        const errors = await t.request('GET', `/api/v1/reports/${reportId}/pages?statusClass=4xx`);
        assert.ok(errors.body.length >= 2);
        assert.ok(errors.body.every((p: { status: number }) => p.status >= 400 && p.status < 500));
      });

      it('shows one page with its findings, headers and how to fix them', async () => {
        const home = (await t.request('GET', `/api/v1/reports/${reportId}/pages?ruleId=links/broken-external`)).body[0];
        const detail = await t.request('GET', `/api/v1/reports/${reportId}/pages/${home.id}`);
        assert.equal(detail.status, 200);
        assert.equal(detail.body.url, s.url('/'));
        const finding = detail.body.findings.find((f: { ruleId: string }) => f.ruleId === 'links/broken-external');
        assert.ok(finding.fix.length > 10 && finding.title.length > 5);
        assert.equal(detail.body.headers['content-type'], 'text/html; charset=utf-8');
        assert.ok(detail.body.inlinks >= 2, 'the other pages link home');
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}/pages/${crypto.randomUUID()}`)).status, 404);
      });

      it('shares a report as JSON and HTML without a key, and unsharing makes both 404', async () => {
        const shared = await t.request('POST', `/api/v1/reports/${reportId}/share`);
        assert.equal(shared.status, 200);
        assert.match(shared.body.token, /^[A-Za-z0-9_-]{22}$/);
        assert.deepEqual((await t.request('POST', `/api/v1/reports/${reportId}/share`)).body, shared.body, 'sharing again keeps the link');
        assert.deepEqual((await t.request('GET', `/api/v1/reports/${reportId}/share`)).body, shared.body);
        // Absolute, on LOUPE_PUBLIC_URL (the test server's is http://localhost:8080): paths below are asked of the test server.
        assert.equal(shared.body.url, `http://localhost:8080/r/${shared.body.token}`);
        assert.equal(shared.body.apiUrl, `http://localhost:8080/api/v1/shared/${shared.body.token}`);
        const htmlPath = new URL(shared.body.url).pathname;
        const jsonPath = new URL(shared.body.apiUrl).pathname;
        assert.deepEqual((await t.request('GET', `/api/v1/reports/${reportId}`)).body.share, shared.body);

        const json = await t.request('GET', jsonPath, { key: null, team: null });
        assert.equal(json.status, 200);
        assert.equal(json.body.id, reportId);
        assert.equal(json.body.crawlId, undefined, 'no workspace ids on the public report');
        const html = await fetch(`${t.url}${htmlPath}`);
        assert.equal(html.status, 200);
        assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await html.text(), /Broken internal links/);
        assert.equal((await t.request('GET', '/api/v1/reports?limit=1')).body[0].shared, true);

        assert.equal((await t.request('DELETE', `/api/v1/reports/${reportId}/share`)).status, 200);
        assert.equal((await t.request('GET', jsonPath, { key: null, team: null })).status, 404);
        assert.equal((await fetch(`${t.url}${htmlPath}`)).status, 404);
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}/share`)).status, 404);
        const again = await t.request('POST', `/api/v1/reports/${reportId}/share`);
        assert.notEqual(again.body.token, shared.body.token, 'a new link, the old one stays dead');
        await t.request('DELETE', `/api/v1/reports/${reportId}/share`);
      });

      it('exports every finding as CSV and the whole report as JSON', async () => {
        const csv = await fetch(`${t.url}/api/v1/reports/${reportId}/export?format=csv`, {
          headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
        });
        assert.equal(csv.status, 200);
        assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
        assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename="loupe-report-.*\.csv"/);
        const lines = (await csv.text()).trimEnd().split('\r\n');
        assert.equal(lines[0], 'url,status,rule_id,category,severity,title,count,detail,position,instance,lcp_ms,cls,tbt_ms');
        const report = (await t.request('GET', `/api/v1/reports/${reportId}`)).body;
        const json = await t.request('GET', `/api/v1/reports/${reportId}/export?format=json`);
        assert.equal(json.status, 200);
        // One CSV row per instance a finding kept, one for a finding that kept none.
        const findings: { instances: string[] }[] = [
          ...json.body.siteFindings,
          ...json.body.pages.flatMap((p: { findings: [] }) => p.findings),
        ];
        assert.equal(findings.length, report.counts.errors + report.counts.warnings + report.counts.notices);
        assert.equal(
          lines.length - 1,
          findings.reduce((rows, finding) => rows + Math.max(finding.instances.length, 1), 0),
        );
        assert.ok(lines.some((line) => line.startsWith(`${s.url('/')},200,links/broken-internal,links,error,`)));

        assert.equal(json.body.report.id, reportId);
        assert.equal(json.body.pages.length, report.pages.crawled);
        assert.ok(json.body.pages.find((p: { url: string }) => p.url === s.url('/')).findings.length > 0);
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}/export?format=xml`)).status, 400);
      });

      it('keeps reports to their workspace and their roles', async () => {
        const other = await t.createWorkspace();
        const as = { key: other.key, team: other.workspaceId };
        for (const path of [`/api/v1/reports/${reportId}`, `/api/v1/reports/${reportId}/pages`, `/api/v1/reports/${reportId}/export`]) {
          assert.equal((await t.request('GET', path, as)).status, 404, path);
        }
        assert.equal((await t.request('POST', `/api/v1/reports/${reportId}/share`, as)).status, 404);
        assert.equal((await t.request('DELETE', `/api/v1/reports/${reportId}`, as)).status, 404);
        assert.deepEqual((await t.request('GET', '/api/v1/reports', as)).body, []);

        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}`, { key: viewer })).status, 200);
        assert.equal((await t.request('POST', `/api/v1/reports/${reportId}/share`, { key: viewer })).status, 403);
        assert.equal((await t.request('DELETE', `/api/v1/reports/${reportId}`, { key: viewer })).status, 403);
      });

      it('validates every query parameter and path id', async () => {
        const bad = [
          `/api/v1/reports/${reportId}/pages?sort=title`,
          `/api/v1/reports/${reportId}/pages?order=up`,
          `/api/v1/reports/${reportId}/pages?statusClass=6xx`,
          `/api/v1/reports/${reportId}/pages?limit=0`,
          `/api/v1/reports/${reportId}/pages?limit=101`,
          `/api/v1/reports/${reportId}/pages?cursor=nonsense`,
          `/api/v1/reports/${reportId}/pages?colour=red`,
          '/api/v1/reports/not-an-id',
          '/api/v1/reports?projectId=42',
        ];
        for (const path of bad) {
          const answer = await t.request('GET', path);
          assert.equal(answer.status, 400, path);
          assert.equal(answer.body.code, 'validation_failed', path);
        }
        // A cursor from one sort is refused by another.
        const first = await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=1&sort=score`);
        const cursor = new URL(nextPage(first)!, 'http://x').searchParams.get('cursor');
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=1&sort=url&cursor=${cursor}`)).status, 400);
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=100`)).status, 200);
        assert.equal((await t.request('GET', '/api/v1/shared/short', { key: null, team: null })).status, 400);
        assert.equal((await t.request('GET', `/api/v1/shared/${'a'.repeat(22)}`, { key: null, team: null })).status, 404);
      });

      it('deletes a report with its pages; the crawl stays without one', async () => {
        const report = (await t.request('GET', `/api/v1/reports/${reportId}`)).body;
        assert.equal((await t.request('DELETE', `/api/v1/reports/${reportId}`)).status, 200);
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}`)).status, 404);
        assert.equal((await t.request('GET', `/api/v1/reports/${reportId}/pages`)).status, 404);
        const crawl = (await t.request('GET', `/api/v1/crawls/${report.crawlId}`)).body;
        assert.equal(crawl.reportId, null);
        assert.equal(crawl.status, 'completed');
      });
    });
  });
}
