import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runLoupe, serverEnv } from '../cli/test-loupe-run.ts';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { ORIGIN, type PageSpec, startTestSite, type TestSite } from '../testing/test-site.ts';

interface Issue {
  ruleId: string;
  pages: number;
  lostPoints: number;
  gain: number;
  scoreWithout: number | null;
}

interface Report {
  id: string;
  issues: Issue[];
  topFixes: { ruleId: string; gain: number; scoreWithout: number }[];
  health: { score: number | null };
}

const PAGES = 25;
const pagePath = (n: number) => (n === 0 ? '/' : `/guide/${n}`);

/**
 * A home page linking to PAGES − 1 guides, each linking back. The last `broken` guides answer
 * 404 (the home page then holds broken links); with `sitemap`, robots.txt names one listing
 * the pages that answer.
 */
function guideSite(options: { broken: number; sitemap: boolean }) {
  const pages: Record<string, PageSpec> = {};
  const listed: string[] = [];
  for (let n = 0; n < PAGES; n += 1) {
    const path = pagePath(n);
    if (n >= PAGES - options.broken) {
      pages[path] = { status: 404, body: 'Not found' };
      continue;
    }
    const links = n === 0 ? Array.from({ length: PAGES - 1 }, (_, i) => pagePath(i + 1)) : ['/'];
    pages[path] = htmlPage({ path, title: `Brewing tea, part ${n} of the Loupe test guide`, links });
    listed.push(`<url><loc>${ORIGIN}${path}</loc></url>`);
  }
  if (options.sitemap) {
    pages['/sitemap.xml'] = {
      contentType: 'application/xml',
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.join('')}</urlset>\n`,
    };
  }
  return { pages, robotsTxt: `User-agent: *\nAllow: /\n${options.sitemap ? `Sitemap: ${ORIGIN}/sitemap.xml\n` : ''}` };
}

/** The rule ids of the CLI's "Top issues" table, in its order. */
function cliTopIssues(stdout: string): string[] {
  const table = stdout.slice(stdout.indexOf('Top issues'));
  return [...table.matchAll(/^(?:error|warning|notice) +(\S+)/gm)].map((match) => match[1] as string);
}

for (const dialect of testDialects()) {
  describe(`credible scores (${dialect})`, () => {
    let t: TestServer;
    const sites: TestSite[] = [];

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
    });
    after(async () => {
      await Promise.all(sites.map((site) => site.close()));
      await t.close();
    });

    it('a site served over http:// is one finding on its pages, not a second one for their forms', async () => {
      const site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', links: ['/contact', '/join'], extraBody: '<form action="/search"><input name="q"></form>' }),
          '/contact': htmlPage({ path: '/contact', links: ['/'], extraBody: '<form method="post"><input name="email"></form>' }),
          '/join': htmlPage({ path: '/join', links: ['/'], extraBody: '<form action="http://forms.example.net/join"></form>' }),
        },
      });
      sites.push(site);
      const report: Report = await crawlToReport(t, { url: site.url('/'), maxPages: 10 });
      const pagesOf = (ruleId: string) => report.issues.find((issue) => issue.ruleId === ruleId)?.pages;
      assert.equal(pagesOf('security/not-https'), 3);
      // Only the form written to post to http:// stays insecure once the site moves to https.
      assert.equal(pagesOf('security/insecure-form'), 1);
    });

    it('no sitemap costs a point or two; six broken pages of 25 cost more than a grade', async () => {
      const noSitemap = await startTestSite(guideSite({ broken: 0, sitemap: false }));
      const brokenPages = await startTestSite(guideSite({ broken: 6, sitemap: true }));
      sites.push(noSitemap, brokenPages);
      const withoutSitemap: Report = await crawlToReport(t, { url: noSitemap.url('/'), maxPages: 50 });
      const withBroken: Report = await crawlToReport(t, { url: brokenPages.url('/'), maxPages: 50 });
      const missing = withoutSitemap.issues.find((issue) => issue.ruleId === 'sitemaps/missing');
      assert.ok(missing, 'sitemaps/missing fires');
      assert.equal(
        withBroken.issues.find((issue) => issue.ruleId === 'sitemaps/missing'),
        undefined,
      );
      // Both sites are served over http://, an error on every page: the rest is what differs.
      assert.ok(missing.lostPoints > 0 && missing.lostPoints < 2, `no sitemap costs ${missing.lostPoints}`);
      assert.ok(
        withoutSitemap.health.score! - withBroken.health.score! >= 10,
        `${withoutSitemap.health.score} vs ${withBroken.health.score}`,
      );
    });

    it('a page moved behind two redirects and linked from every page costs what one redirect costs, once per page', async () => {
      // Every page links to /old, which answers 301 to /new (one hop) or to /new by way of /between (two).
      const movedSite = (hops: 1 | 2) => {
        const paths = ['/', ...Array.from({ length: 5 }, (_, i) => `/guide/${i + 1}`), '/new'];
        const pages: Record<string, PageSpec> = {};
        for (const path of paths) {
          const links = [...paths.filter((other) => other !== path && other !== '/new'), '/old'];
          pages[path] = htmlPage({ path, title: `Brewing tea: ${path} of the Loupe test guide`, links });
        }
        pages['/old'] = { status: 301, redirect: hops === 1 ? '/new' : '/between' };
        if (hops === 2) pages['/between'] = { status: 301, redirect: '/new' };
        return { pages };
      };
      const oneHop = await startTestSite(movedSite(1));
      const twoHops = await startTestSite(movedSite(2));
      sites.push(oneHop, twoHops);
      const single: Report = await crawlToReport(t, { url: oneHop.url('/'), maxPages: 20, sitemaps: false });
      const chain: Report = await crawlToReport(t, { url: twoHops.url('/'), maxPages: 20, sitemaps: false });
      const issueOf = (report: Report, ruleId: string) => report.issues.find((issue) => issue.ruleId === ruleId);
      assert.equal(issueOf(single, 'redirects/linked-redirect')?.pages, 7);
      assert.equal(issueOf(chain, 'redirects/chain')?.pages, 7);
      // The chain is one root cause on each page: not a linked redirect as well (which took 0.85² of every page).
      assert.equal(issueOf(chain, 'redirects/linked-redirect'), undefined);
      assert.equal(chain.health.score, single.health.score);
    });

    it('a rule costs what fixing it gains, and the CLI, topFixes and the issues agree on the order', async () => {
      const site = await startTestSite(guideSite({ broken: 3, sitemap: false }));
      sites.push(site);
      const report: Report = await crawlToReport(t, { url: site.url('/'), maxPages: 50 });
      for (const issue of report.issues) assert.equal(issue.lostPoints, issue.gain, issue.ruleId);
      const paying = report.issues.filter((issue) => issue.gain > 1e-9);
      assert.ok(paying.length >= 4, JSON.stringify(paying.map((issue) => issue.ruleId)));
      assert.deepEqual(
        report.topFixes.map((fix) => [fix.ruleId, fix.gain, fix.scoreWithout]),
        paying.slice(0, report.topFixes.length).map((issue) => [issue.ruleId, issue.gain, issue.scoreWithout]),
      );
      const run = await runLoupe(['reports', 'get', report.id], serverEnv(t));
      assert.equal(run.code, 0, run.stderr);
      const cli = cliTopIssues(run.stdout);
      assert.ok(cli.length >= report.topFixes.length, run.stdout);
      assert.deepEqual(
        cli.slice(0, report.topFixes.length),
        report.topFixes.map((fix) => fix.ruleId),
      );
      assert.deepEqual(
        cli,
        report.issues.slice(0, cli.length).map((issue) => issue.ruleId),
      );
    });
  });
}
