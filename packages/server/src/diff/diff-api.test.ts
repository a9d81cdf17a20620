import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { ORIGIN, type SiteDefinition, secureHeaders, startTestSite, type TestSite } from '../testing/test-site.ts';
import { siteOf } from './diff-service.ts';

interface IssueGroup {
  ruleId: string;
  title: string;
  severity: string;
  total: number;
  urls: string[];
}

const page = (path: string, title: string, options: Parameters<typeof htmlPage>[0] = {}) => htmlPage({ path, title, ...options });

/** The first version of the site: seven pages, no robots.txt, /contact without a description. */
function firstVersion(): SiteDefinition {
  return {
    pages: {
      '/': page('/', 'The diff test site: a home page linking to every section', {
        links: ['/about', '/products', '/old-page', '/contact', '/blog'],
      }),
      '/about': page('/about', 'About the diff test site and the people who run it'),
      '/products': page('/products', 'Products of the diff test site, in one list', { links: ['/', '/products/widget'] }),
      '/products/widget': page('/products/widget', 'The widget: a product page of the diff test site'),
      '/old-page': page('/old-page', 'An old page that the next version of the site drops'),
      '/contact': page('/contact', 'How to contact the people behind the diff test site', { description: null }),
      '/blog': page('/blog', 'The blog of the diff test site, with its latest posts'),
    },
  };
}

/**
 * The second version, made by changing the first in place (the test site reads its definition
 * on every request): a page added, one dropped, a link broken, a title changed, a page gone 404,
 * a missing description and a missing robots.txt fixed.
 */
function changeToSecondVersion(site: SiteDefinition): void {
  site.pages['/'] = page('/', 'The diff test site: a home page linking to every section', {
    links: ['/about', '/products', '/contact', '/blog', '/new-page'],
  });
  delete site.pages['/old-page'];
  site.pages['/new-page'] = page('/new-page', 'A new page that the second version of the site adds');
  site.pages['/products'] = page('/products', 'Products of the diff test site, in one list', {
    links: ['/', '/products/widget', '/products/gadget'],
  });
  site.pages['/about'] = page('/about', 'About us: the team behind the diff test site today');
  site.pages['/blog'] = { status: 404, body: '<!doctype html><html lang="en"><title>Not found</title><h1>Not found</h1></html>' };
  site.pages['/contact'] = page('/contact', 'How to contact the people behind the diff test site');
  site.robotsTxt = 'User-agent: *\nDisallow:\n';
}

/**
 * The same pages served from 127.0.0.2 (another host of the loopback range), so a crawl of it
 * is a report of another site. Plain HTML pages only; anything else answers 404.
 */
async function startOnOtherHost(site: SiteDefinition): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    const spec = path === '/robots.txt' ? site.robotsTxt : site.pages[path];
    const found = typeof spec === 'string';
    let body = Buffer.from(found ? spec.replaceAll(ORIGIN, origin) : '<!doctype html><title>Not found</title>');
    const headers: Record<string, string> = {
      ...secureHeaders,
      'content-type': path === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8',
    };
    if (body.length >= 1024 && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
      headers.vary = 'Accept-Encoding';
    }
    res.writeHead(found ? 200 : 404, { ...headers, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * What the diff's issue lists must be, worked out another way: every (rule, URL) of each
 * report from its JSON export (page findings, and site-level findings with the URL the report
 * names), keyed by path and query, and the differences grouped by rule.
 */
async function exportedIssues(t: TestServer, report: { id: string; url: string }) {
  const exported = (await t.request('GET', `/api/v1/reports/${report.id}/export?format=json`)).body;
  const origin = new URL(report.url).origin;
  const keyOf = (url: string) => (url.startsWith(`${origin}/`) ? url.slice(origin.length) : url);
  const issues = new Map<string, { ruleId: string; url: string; severity: string; page: string | null }>();
  const add = (ruleId: string, url: string, severity: string, page: string | null) =>
    issues.set(`${ruleId} ${keyOf(url)}`, { ruleId, url, severity, page });
  for (const p of exported.pages) for (const finding of p.findings) add(finding.ruleId, p.url, finding.severity, keyOf(p.url));
  for (const issue of exported.report.issues) {
    for (const example of issue.examples) if (example.pageId === null) add(issue.ruleId, example.url, issue.severity, null);
  }
  return issues;
}

/** The page keys of a report's pages that answered with a page (2xx, or a 3xx that did not fail), from its export. */
async function exportedPagesThere(t: TestServer, report: { id: string; url: string }): Promise<Set<string>> {
  const exported = (await t.request('GET', `/api/v1/reports/${report.id}/export?format=json`)).body;
  const origin = new URL(report.url).origin;
  const there = exported.pages.filter(
    (p: { status: number | null; fetchError: string | null }) =>
      p.status !== null && p.status >= 200 && p.status < 400 && (p.fetchError === null || p.fetchError === 'truncated'),
  );
  return new Set(there.map((p: { url: string }) => (p.url.startsWith(`${origin}/`) ? p.url.slice(origin.length) : p.url)));
}

/** The issues of `from` on pages there in `there` (site-level ones always), or on the others. */
function onPages<Issue extends { page: string | null }>(from: Map<string, Issue>, there: Set<string>, pageThere: boolean) {
  return new Map([...from].filter(([, issue]) => (issue.page === null || there.has(issue.page)) === pageThere));
}

const rank = ['notice', 'warning', 'error'];

function onlyIn(from: Map<string, { ruleId: string; url: string; severity: string }>, against: Map<string, unknown>) {
  const byRule = new Map<string, { severity: string; urls: string[] }>();
  for (const [key, issue] of from) {
    if (against.has(key)) continue;
    const entry = byRule.get(issue.ruleId) ?? { severity: 'notice', urls: [] };
    if (rank.indexOf(issue.severity) > rank.indexOf(entry.severity)) entry.severity = issue.severity;
    entry.urls.push(issue.url);
    byRule.set(issue.ruleId, entry);
  }
  return [...byRule]
    .map(([ruleId, entry]) => ({ ruleId, severity: entry.severity, total: entry.urls.length, urls: entry.urls.sort() }))
    .sort((a, b) => rank.indexOf(b.severity) - rank.indexOf(a.severity) || (a.ruleId < b.ruleId ? -1 : 1));
}

/** Every (rule, URL) of an issue list, sorted. */
const issuePairs = (changes: { byRule: IssueGroup[] }) =>
  changes.byRule.flatMap((group) => group.urls.map((url) => `${group.ruleId} ${url}`)).sort();
const withoutTitles = (groups: IssueGroup[]) => groups.map(({ title: _, ...group }) => group);
const urlsOf = (groups: IssueGroup[], ruleId: string) => groups.find((group) => group.ruleId === ruleId)?.urls ?? [];

describe('which reports are of one site', () => {
  it('ignores the scheme, the port and a leading www., and nothing else', () => {
    assert.equal(siteOf('http://example.com/'), siteOf('https://www.example.com/shop?page=2'));
    assert.equal(siteOf('http://127.0.0.1:8080/'), siteOf('http://127.0.0.1:9090/a'));
    assert.notEqual(siteOf('https://shop.example.com/'), siteOf('https://example.com/'));
    assert.notEqual(siteOf('https://example.com/'), siteOf('https://example.org/'));
    assert.notEqual(siteOf('https://www2.example.com/'), siteOf('https://example.com/'));
  });
});

for (const dialect of testDialects()) {
  describe(`diff API (${dialect})`, () => {
    let t: TestServer;
    let s: TestSite;
    let other: Awaited<ReturnType<typeof startOnOtherHost>>;
    let first: any;
    let second: any;
    let elsewhere: any;
    const diff = (query: string, options: Parameters<TestServer['request']>[2] = {}) => t.request('GET', `/api/v1/diff?${query}`, options);

    before(async () => {
      t = await startTestServer(dialect, { logLevel: 'error', crawlAllowPrivate: true });
      const definition = firstVersion();
      s = await startTestSite(definition);
      first = await crawlToReport(t, { url: s.url('/'), maxPages: 30 });
      changeToSecondVersion(definition);
      second = await crawlToReport(t, { url: s.url('/'), maxPages: 30 });
      other = await startOnOtherHost(definition);
      elsewhere = await crawlToReport(t, { url: `${other.origin}/`, maxPages: 30 });
    });
    after(async () => {
      await s?.close();
      await other?.close();
      await t?.close();
    });

    it('compares two crawls of a changed site: scores, pages, statuses, titles and issues', async () => {
      const answer = await diff(`old=${first.id}&new=${second.id}&limit=1000`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const d = answer.body;
      assert.deepEqual(d.old, {
        id: first.id,
        url: first.url,
        createdAt: first.createdAt,
        score: first.health.score,
        grade: first.health.grade,
      });
      assert.deepEqual(d.new, {
        id: second.id,
        url: second.url,
        createdAt: second.createdAt,
        score: second.health.score,
        grade: second.health.grade,
      });
      assert.equal(d.matchedBy, 'url');
      assert.deepEqual(d.score, {
        before: first.health.score,
        after: second.health.score,
        delta: second.health.score - first.health.score,
      });
      assert.ok(d.score.delta < 0, 'a broken link and two 404s cost more than the fixes gain');
      for (const [key, severity] of [
        ['errors', 'errors'],
        ['warnings', 'warnings'],
        ['notices', 'notices'],
      ] as const) {
        assert.deepEqual(d.severities[key], {
          before: first.counts[severity],
          after: second.counts[severity],
          delta: second.counts[severity] - first.counts[severity],
        });
      }

      assert.deepEqual(d.pages, {
        before: 7,
        after: 8,
        added: { total: 1, urls: [s.url('/new-page')] },
        // A new URL answering 404 is a broken page, not an added one.
        broken: { total: 1, pages: [{ url: s.url('/products/gadget'), status: 404, kind: 'not-found', cause: 'answers 404' }] },
        removed: { total: 1, urls: [s.url('/old-page')] },
        gone: {
          total: 2,
          pages: [
            { url: s.url('/blog'), status: 404, kind: 'not-found', cause: 'answers 404' },
            {
              url: s.url('/old-page'),
              status: null,
              kind: 'not-linked',
              cause: 'not found by the crawl: no longer linked, or out of its scope',
            },
          ],
        },
      });
      assert.equal(d.pages.before, first.pages.crawled);
      assert.equal(d.pages.after, second.pages.crawled);
      assert.deepEqual(d.changed.status, {
        total: 1,
        pages: [{ url: s.url('/blog'), before: 200, after: 404, beforeCause: null, afterCause: null }],
      });
      // /blog lost its title too, but as a 404 it is no longer an HTML page: a status change only.
      assert.deepEqual(d.changed.title, {
        total: 1,
        pages: [
          {
            url: s.url('/about'),
            before: 'About the diff test site and the people who run it',
            after: 'About us: the team behind the diff test site today',
          },
        ],
      });

      // The planted changes, by hand…
      assert.deepEqual(urlsOf(d.issues.new.byRule, 'status/client-error'), [s.url('/blog'), s.url('/products/gadget')]);
      assert.deepEqual(urlsOf(d.issues.new.byRule, 'links/broken-internal'), [s.url('/'), s.url('/products')]);
      assert.deepEqual(urlsOf(d.issues.resolved.byRule, 'descriptions/missing'), [s.url('/contact')]);
      assert.deepEqual(
        urlsOf(d.issues.resolved.byRule, 'robots/missing'),
        [s.url('/robots.txt')],
        'a site-level finding, on the URL it names',
      );
      assert.equal(
        d.issues.new.byRule.find((group: IssueGroup) => group.ruleId === 'links/broken-internal').title,
        'Broken internal links',
      );
      // …and every other list entry, against both reports' full exports.
      const [before, after] = [await exportedIssues(t, first), await exportedIssues(t, second)];
      const thereAfter = await exportedPagesThere(t, second);
      const expectedNew = onlyIn(after, before);
      const expectedResolved = onlyIn(onPages(before, thereAfter, true), after);
      assert.deepEqual(withoutTitles(d.issues.new.byRule), expectedNew);
      assert.deepEqual(withoutTitles(d.issues.resolved.byRule), expectedResolved);
      assert.deepEqual(withoutTitles(d.issues.onGonePages.byRule), onlyIn(onPages(before, thereAfter, false), after));
      assert.equal(
        d.issues.new.total,
        expectedNew.reduce((sum, group) => sum + group.total, 0),
      );
      assert.equal(d.issues.new.rules, expectedNew.length);
      assert.equal(
        d.issues.resolved.total,
        expectedResolved.reduce((sum, group) => sum + group.total, 0),
      );
      // The old page's issues and /blog's went with their pages: not resolved.
      for (const gone of [s.url('/old-page'), s.url('/blog')]) {
        assert.ok(
          d.issues.onGonePages.byRule.some((group: IssueGroup) => group.urls.includes(gone)),
          gone,
        );
        assert.ok(!d.issues.resolved.byRule.some((group: IssueGroup) => group.urls.includes(gone)), gone);
      }
    });

    it('is the mirror image the other way round', async () => {
      const forward = (await diff(`old=${first.id}&new=${second.id}`)).body;
      const backward = (await diff(`old=${second.id}&new=${first.id}`)).body;
      assert.deepEqual(backward.score, { before: forward.score.after, after: forward.score.before, delta: -forward.score.delta });
      // /old-page answered 200: added going back; the new 404 /products/gadget is only removed.
      assert.deepEqual(backward.pages.added, forward.pages.removed);
      assert.deepEqual(backward.pages.removed.urls, [
        ...forward.pages.added.urls,
        ...forward.pages.broken.pages.map((p: { url: string }) => p.url),
      ]);
      assert.deepEqual(backward.pages.gone, {
        total: 1,
        pages: [
          {
            url: s.url('/new-page'),
            status: null,
            kind: 'not-linked',
            cause: 'not found by the crawl: no longer linked, or out of its scope',
          },
        ],
      });
      // What one way calls new, the other calls resolved or gone with its page; and the other way round.
      assert.deepEqual(
        issuePairs(backward.issues.new),
        [...issuePairs(forward.issues.resolved), ...issuePairs(forward.issues.onGonePages)].sort(),
      );
      assert.deepEqual(
        issuePairs(forward.issues.new),
        [...issuePairs(backward.issues.resolved), ...issuePairs(backward.issues.onGonePages)].sort(),
      );
      assert.deepEqual(backward.changed.status.pages, [
        { url: s.url('/blog'), before: 404, after: 200, beforeCause: null, afterCause: null },
      ]);
      assert.deepEqual(
        backward.changed.title.pages.map((p: { before: string; after: string }) => [p.before, p.after]),
        forward.changed.title.pages.map((p: { before: string; after: string }) => [p.after, p.before]),
      );
    });

    it('finds nothing between a report and itself', async () => {
      const d = (await diff(`old=${second.id}&new=${second.id}`)).body;
      assert.deepEqual(d.score.delta, 0);
      assert.deepEqual(d.pages.added, { total: 0, urls: [] });
      assert.deepEqual(d.pages.removed, { total: 0, urls: [] });
      assert.deepEqual(d.pages.broken, { total: 0, pages: [] });
      assert.deepEqual(d.pages.gone, { total: 0, pages: [] });
      assert.deepEqual(d.issues.new, { total: 0, rules: 0, byRule: [] });
      assert.deepEqual(d.issues.resolved, { total: 0, rules: 0, byRule: [] });
      assert.deepEqual(d.issues.onGonePages, { total: 0, rules: 0, byRule: [] });
      assert.deepEqual(d.changed, { status: { total: 0, pages: [] }, title: { total: 0, pages: [] } });
    });

    it('cuts every list at limit and keeps the true totals', async () => {
      const full = (await diff(`old=${first.id}&new=${second.id}`)).body;
      const cut = (await diff(`old=${first.id}&new=${second.id}&limit=1`)).body;
      assert.deepEqual(cut.pages.added, full.pages.added);
      assert.deepEqual(cut.pages.removed, full.pages.removed);
      assert.deepEqual(cut.pages.gone, { total: 2, pages: full.pages.gone.pages.slice(0, 1) });
      for (const list of ['new', 'resolved'] as const) {
        assert.equal(cut.issues[list].total, full.issues[list].total);
        assert.equal(cut.issues[list].rules, full.issues[list].rules);
        assert.ok(full.issues[list].rules > 1, 'more than one rule, so the cut shows');
        assert.deepEqual(cut.issues[list].byRule, [{ ...full.issues[list].byRule[0], urls: full.issues[list].byRule[0].urls.slice(0, 1) }]);
      }
      assert.deepEqual(cut.changed, full.changed, 'one change of each: nothing to cut');
    });

    it('refuses reports of two sites unless allowCrossSite=true, then matches pages by path', async () => {
      for (const query of [`old=${second.id}&new=${elsewhere.id}`, `old=${second.id}&new=${elsewhere.id}&allowCrossSite=false`]) {
        const refused = await diff(query);
        assert.equal(refused.status, 400, query);
        assert.equal(refused.body.code, 'reports_not_comparable');
        assert.match(refused.body.error, /allowCrossSite=true/);
      }
      const answer = await diff(`old=${second.id}&new=${elsewhere.id}&allowCrossSite=true&limit=1000`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const d = answer.body;
      assert.equal(d.matchedBy, 'path');
      // The same pages on another host: each one is found again by its path.
      assert.equal(d.pages.before, 8);
      assert.deepEqual(d.pages.added, { total: 0, urls: [] });
      assert.deepEqual(d.pages.removed, { total: 0, urls: [] });
      assert.deepEqual(d.pages.broken, { total: 0, pages: [] });
      assert.deepEqual(d.pages.gone, { total: 0, pages: [] });
      assert.deepEqual(d.issues.onGonePages, { total: 0, rules: 0, byRule: [] });
      assert.deepEqual(d.changed.status, { total: 0, pages: [] });
      assert.deepEqual(d.changed.title, { total: 0, pages: [] });
      const [before, after] = [await exportedIssues(t, second), await exportedIssues(t, elsewhere)];
      assert.deepEqual(withoutTitles(d.issues.new.byRule), onlyIn(after, before));
      assert.deepEqual(withoutTitles(d.issues.resolved.byRule), onlyIn(before, after));
    });

    it('answers 404 for an unknown report or one of another workspace', async () => {
      const unknown = crypto.randomUUID();
      for (const query of [`old=${unknown}&new=${second.id}`, `old=${first.id}&new=${unknown}`]) {
        const answer = await diff(query);
        assert.equal(answer.status, 404, query);
        assert.equal(answer.body.code, 'not_found');
      }
      const stranger = await t.createWorkspace();
      const as = { key: stranger.key, team: stranger.workspaceId };
      assert.equal((await diff(`old=${first.id}&new=${second.id}`, as)).status, 404);
    });

    it('lets a viewer compare, and not a key without reports:read', async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      assert.equal((await diff(`old=${first.id}&new=${second.id}`, { key: viewer })).status, 200);
      const narrow = await t.request('POST', '/api/v1/keys', { body: { name: 'images only', scopes: ['images:read'] } });
      assert.equal(narrow.status, 201);
      const refused = await diff(`old=${first.id}&new=${second.id}`, { key: narrow.body.key });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'forbidden');
      assert.equal((await diff(`old=${first.id}&new=${second.id}`, { key: null })).status, 401);
    });

    it('validates its query', async () => {
      const ids = `old=${first.id}&new=${second.id}`;
      const bad = [
        '',
        `old=${first.id}`,
        `new=${second.id}`,
        `old=42&new=${second.id}`,
        `${ids}&limit=0`,
        `${ids}&limit=1001`,
        `${ids}&limit=1.5`,
        `${ids}&limit=many`,
        `${ids}&allowCrossSite=yes`,
        `${ids}&allowCrossSite=`,
        `${ids}&colour=red`,
      ];
      for (const query of bad) {
        const answer = await diff(query);
        assert.equal(answer.status, 400, query);
        assert.equal(answer.body.code, 'validation_failed', query);
      }
      for (const query of [`${ids}&limit=1`, `${ids}&limit=1000`, `${ids}&allowCrossSite=true`, `${ids}&allowCrossSite=false`]) {
        assert.equal((await diff(query)).status, 200, query);
      }
    });
  });
}

/**
 * A site whose pages all answer 200 at first, each with a finding (no meta description), and
 * the same site after pages were removed, deleted (404, 410), blocked by robots.txt, broken
 * (500, a dropped connection), moved (a redirect now), fixed (a 404 now 200, a description added),
 * and new URLs added: one a page, one 404, one blocked.
 */
function changingSite(): SiteDefinition {
  const paths = ['/removed', '/deleted', '/withdrawn', '/private', '/failing', '/moved', '/dropping', '/fixed', '/kept'];
  const pages: SiteDefinition['pages'] = {
    '/': page('/', 'The honest diff test site: a home page linking to every page', { links: paths }),
  };
  for (const path of paths) pages[path] = page(path, `The page ${path} of the honest diff test site`, { description: null });
  pages['/fixed'] = { status: 404, body: '<!doctype html><html lang="en"><title>Not found</title><h1>Not found</h1></html>' };
  return { pages, robotsTxt: 'User-agent: *\nDisallow:\n' };
}

function changeSite(site: SiteDefinition): void {
  const linked = [
    '/deleted',
    '/withdrawn',
    '/private',
    '/failing',
    '/moved',
    '/dropping',
    '/fixed',
    '/kept',
    '/new',
    '/new-broken',
    '/new-private',
  ];
  site.pages['/'] = page('/', 'The honest diff test site: a home page linking to every page', { links: linked });
  delete site.pages['/removed'];
  delete site.pages['/deleted'];
  site.pages['/withdrawn'] = { status: 410, body: '<!doctype html><html lang="en"><title>Gone</title><h1>Gone</h1></html>' };
  site.pages['/failing'] = { status: 500, body: '<!doctype html><html lang="en"><title>Error</title><h1>Error</h1></html>' };
  site.pages['/moved'] = { redirect: '/kept' };
  site.pages['/dropping'] = { drop: true, times: 1000, thenServe: page('/dropping', 'Never served') };
  site.pages['/fixed'] = page('/fixed', 'The page /fixed of the honest diff test site, back again', { description: null });
  site.pages['/kept'] = page('/kept', 'The page /kept of the honest diff test site');
  site.pages['/new'] = page('/new', 'A page the second version of the honest diff test site adds');
  site.robotsTxt = 'User-agent: *\nDisallow: /private\nDisallow: /new-private\n';
}

for (const dialect of testDialects()) {
  describe(`honest diffs of a site changed between two crawls (${dialect})`, () => {
    let t: TestServer;
    let s: TestSite;
    let first: any;
    let second: any;
    let d: any;

    before(async () => {
      t = await startTestServer(dialect, { logLevel: 'error', crawlAllowPrivate: true });
      const definition = changingSite();
      s = await startTestSite(definition);
      first = await crawlToReport(t, { url: s.url('/'), maxPages: 30, sitemaps: false });
      changeSite(definition);
      second = await crawlToReport(t, { url: s.url('/'), maxPages: 30, sitemaps: false });
      const answer = await t.request('GET', `/api/v1/diff?old=${first.id}&new=${second.id}&limit=1000`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      d = answer.body;
    });
    after(async () => {
      await s?.close();
      await t?.close();
    });

    it('reports each page gone with its cause', () => {
      const byUrl = Object.fromEntries(d.pages.gone.pages.map((p: { url: string }) => [new URL(p.url).pathname, p]));
      // A page that now redirects still answers: it is not gone.
      assert.deepEqual(Object.keys(byUrl), ['/deleted', '/dropping', '/failing', '/private', '/removed', '/withdrawn']);
      assert.equal(d.pages.gone.total, 6);
      assert.deepEqual(Object.fromEntries(Object.entries(byUrl).map(([path, p]: [string, any]) => [path, [p.kind, p.status]])), {
        '/deleted': ['not-found', 404],
        '/dropping': ['no-answer', null],
        '/failing': ['server-error', 500],
        '/private': ['blocked-by-robots', null],
        '/removed': ['not-linked', null],
        '/withdrawn': ['not-found', 410],
      });
      assert.equal(byUrl['/private'].cause, 'blocked by robots.txt');
      assert.equal(byUrl['/withdrawn'].cause, 'answers 410');
      // The crawler stores this failure as a network error in undici's words.
      assert.equal(byUrl['/dropping'].cause, 'network error: other side closed');
      // A page that was an error page before (/fixed was 404) was never a page to lose.
      assert.deepEqual(d.pages.removed.urls, [s.url('/removed')]);
    });

    it('does not call the findings of a gone page resolved', () => {
      const resolved = urlsOf(d.issues.resolved.byRule, 'descriptions/missing');
      const goneWith = urlsOf(d.issues.onGonePages.byRule, 'descriptions/missing');
      assert.deepEqual(resolved, [s.url('/kept'), s.url('/moved')], 'the page that gained a description, and the one that redirects now');
      assert.deepEqual(
        goneWith,
        ['/deleted', '/dropping', '/failing', '/private', '/removed', '/withdrawn'].map((path) => s.url(path)),
      );
      // The fixed page is there now: its 404 is resolved, and its missing description is new.
      assert.deepEqual(urlsOf(d.issues.resolved.byRule, 'status/client-error'), [s.url('/fixed')]);
      assert.ok(urlsOf(d.issues.new.byRule, 'descriptions/missing').includes(s.url('/fixed')));
      const resolvedUrls = new Set((d.issues.resolved.byRule as IssueGroup[]).flatMap((group) => group.urls));
      for (const url of goneWith) assert.ok(!resolvedUrls.has(url), `${url}: no finding of a gone page is resolved`);
    });

    it('reports a new URL that does not answer with a page as broken, not added', () => {
      assert.deepEqual(d.pages.added, { total: 1, urls: [s.url('/new')] });
      assert.deepEqual(d.pages.broken, {
        total: 2,
        pages: [
          { url: s.url('/new-broken'), status: 404, kind: 'not-found', cause: 'answers 404' },
          { url: s.url('/new-private'), status: null, kind: 'blocked-by-robots', cause: 'blocked by robots.txt' },
        ],
      });
    });

    it('names the cause of each status change', () => {
      const byUrl = Object.fromEntries(
        d.changed.status.pages.map((p: any) => [new URL(p.url).pathname, [p.before, p.beforeCause, p.after, p.afterCause]]),
      );
      assert.deepEqual(byUrl, {
        '/deleted': [200, null, 404, null],
        '/dropping': [200, null, null, 'network error: other side closed'],
        '/failing': [200, null, 500, null],
        '/fixed': [404, null, 200, null],
        '/moved': [200, null, 301, null],
        '/private': [200, null, null, 'blocked by robots.txt'],
        '/withdrawn': [200, null, 410, null],
      });
    });
  });
}
