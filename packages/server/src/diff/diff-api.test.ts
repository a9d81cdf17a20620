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
  const issues = new Map<string, { ruleId: string; url: string; severity: string }>();
  const add = (ruleId: string, url: string, severity: string) =>
    issues.set(`${ruleId} ${url.startsWith(`${origin}/`) ? url.slice(origin.length) : url}`, { ruleId, url, severity });
  for (const p of exported.pages) for (const finding of p.findings) add(finding.ruleId, p.url, finding.severity);
  for (const issue of exported.report.issues) {
    for (const example of issue.examples) if (example.pageId === null) add(issue.ruleId, example.url, issue.severity);
  }
  return issues;
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
        added: { total: 2, urls: [s.url('/new-page'), s.url('/products/gadget')] },
        removed: { total: 1, urls: [s.url('/old-page')] },
      });
      assert.equal(d.pages.before, first.pages.crawled);
      assert.equal(d.pages.after, second.pages.crawled);
      assert.deepEqual(d.changed.status, { total: 1, pages: [{ url: s.url('/blog'), before: 200, after: 404 }] });
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
      const expectedNew = onlyIn(after, before);
      const expectedResolved = onlyIn(before, after);
      assert.deepEqual(withoutTitles(d.issues.new.byRule), expectedNew);
      assert.deepEqual(withoutTitles(d.issues.resolved.byRule), expectedResolved);
      assert.equal(
        d.issues.new.total,
        expectedNew.reduce((sum, group) => sum + group.total, 0),
      );
      assert.equal(d.issues.new.rules, expectedNew.length);
      assert.equal(
        d.issues.resolved.total,
        expectedResolved.reduce((sum, group) => sum + group.total, 0),
      );
      // The old page's issues went with it.
      assert.ok(d.issues.resolved.byRule.some((group: IssueGroup) => group.urls.includes(s.url('/old-page'))));
    });

    it('is the mirror image the other way round', async () => {
      const forward = (await diff(`old=${first.id}&new=${second.id}`)).body;
      const backward = (await diff(`old=${second.id}&new=${first.id}`)).body;
      assert.deepEqual(backward.score, { before: forward.score.after, after: forward.score.before, delta: -forward.score.delta });
      assert.deepEqual(backward.pages.added, forward.pages.removed);
      assert.deepEqual(backward.pages.removed, forward.pages.added);
      assert.deepEqual(backward.issues.new, forward.issues.resolved);
      assert.deepEqual(backward.issues.resolved, forward.issues.new);
      assert.deepEqual(backward.changed.status.pages, [{ url: s.url('/blog'), before: 404, after: 200 }]);
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
      assert.deepEqual(d.issues.new, { total: 0, rules: 0, byRule: [] });
      assert.deepEqual(d.issues.resolved, { total: 0, rules: 0, byRule: [] });
      assert.deepEqual(d.changed, { status: { total: 0, pages: [] }, title: { total: 0, pages: [] } });
    });

    it('cuts every list at limit and keeps the true totals', async () => {
      const full = (await diff(`old=${first.id}&new=${second.id}`)).body;
      const cut = (await diff(`old=${first.id}&new=${second.id}&limit=1`)).body;
      assert.deepEqual(cut.pages.added, { total: 2, urls: [s.url('/new-page')] });
      assert.deepEqual(cut.pages.removed, full.pages.removed);
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
