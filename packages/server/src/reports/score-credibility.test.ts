import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

interface Issue {
  ruleId: string;
  pages: number;
}

interface Report {
  id: string;
  issues: Issue[];
  health: { score: number | null };
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
  });
}
