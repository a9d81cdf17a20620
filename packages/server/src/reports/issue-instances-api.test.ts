import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IssueInstance, ReportPageDetail } from '@loupe/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callError, callOk } from '../mcp/test-tool-calls.ts';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport, crawlWithRulePack } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const GALLERY = 40;
/** One past what a finding keeps on one URL. */
const HUGE = 1001;
const gallerySrc = (n: number) => `/img/${String(n).padStart(2, '0')}.png`;
const times = (n: number, markup: (i: number) => string) => Array.from({ length: n }, (_, i) => markup(i)).join('');
const FORTY_TITLE = 'A page with forty of each thing a page check lists';
const description = (i: number) => `Description ${i} of a page that says what it holds forty times over, each time a bit differently.`;
/** Page checks whose facts count forty of something on /forty, and how each names the i-th. */
const FORTY_OF_EACH: [ruleId: string, instance: (i: number) => string][] = [
  ['accessibility-basic/button-no-name', (i) => `button#b${i}`],
  ['accessibility-basic/input-no-label', (i) => `input[name=q${i}]`],
  ['accessibility-basic/duplicate-id', (i) => `#d${i}`],
  ['indexability/meta-in-body', (i) => `meta[name=m${i}]`],
  ['descriptions/multiple', description],
  ['headings/h1-multiple', (i) => `Heading ${i}`],
  ['redirects/meta-refresh', (i) => String(3600 + i)],
  ['titles/multiple', (i) => (i === 0 ? FORTY_TITLE : `Title ${i}`)],
];

for (const dialect of testDialects()) {
  describe(`every instance of an issue (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let reportId: string;
    const ids = new Map<string, string>();
    const instancesPath = (ruleId: string, query = '') =>
      `/api/v1/reports/${reportId}/issues/${encodeURIComponent(ruleId)}/instances${query ? `?${query}` : ''}`;

    /** Every page of a listing, following the Link header; the page sizes too. */
    const everyPage = async (path: string, as: { key?: string; team?: string } = {}) => {
      const items: IssueInstance[] = [];
      const sizes: number[] = [];
      for (let next: string | undefined = path; next !== undefined; ) {
        const answer: HttpAnswer = await t.request('GET', next, as);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        items.push(...(answer.body as IssueInstance[]));
        sizes.push(answer.body.length);
        next = nextPage(answer);
      }
      return { items, sizes };
    };

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
      site = await startTestSite({
        pages: {
          '/': htmlPage({
            path: '/',
            title: 'A home page linking to the galleries',
            links: ['/gallery', '/pair', '/huge', '/forty', '/crowded'],
          }),
          '/gallery': htmlPage({
            path: '/gallery',
            title: 'A gallery of forty images without alt text',
            images: Array.from({ length: GALLERY }, (_, n) => ({ src: gallerySrc(n), alt: null })),
          }),
          '/pair': htmlPage({
            path: '/pair',
            title: 'A page with two images without alt text',
            images: [
              { src: '/ok.png', alt: null },
              { src: '/ok.png?second', alt: null },
            ],
          }),
          '/huge': htmlPage({
            path: '/huge',
            title: 'A page with more images without alt than a finding keeps',
            extraBody: '<img src="/ok.png" width="1" height="1">'.repeat(HUGE),
          }),
          '/forty': htmlPage({
            path: '/forty',
            title: FORTY_TITLE,
            description: null,
            h1: null,
            extraHead:
              times(GALLERY - 1, (i) => `<title>Title ${i + 1}</title>`) +
              times(
                GALLERY,
                (i) => `<meta name="description" content="${description(i)}"><meta http-equiv="refresh" content="${3600 + i}">`,
              ),
            extraBody: times(
              GALLERY,
              (i) =>
                `<h1>Heading ${i}</h1><button id="b${i}"></button><input name="q${i}"><i id="d${i}"></i><b id="d${i}"></b><meta name="m${i}">`,
            ),
          }),
          '/crowded': htmlPage({
            path: '/crowded',
            title: 'A page with more unnamed buttons than a finding keeps',
            extraBody: times(HUGE, (i) => `<button id="b${i}"></button>`),
          }),
          '/ok.png': { body: Buffer.from('not really a png'), contentType: 'image/png' },
        },
      });
      reportId = (await crawlToReport(t, { url: site.url('/'), sitemaps: false })).id;
      const pages = await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=100`);
      for (const page of pages.body as { id: string; url: string }[]) ids.set(new URL(page.url).pathname, page.id);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it("gives all forty instances of a page's finding, paged, in the order found, where the page detail keeps three samples", async () => {
      const gallery = ids.get('/gallery') as string;
      const { items, sizes } = await everyPage(instancesPath('images/alt-missing', `pageId=${gallery}&limit=7`));
      assert.deepEqual(sizes, [7, 7, 7, 7, 7, 5]);
      assert.deepEqual(
        items.map((item) => item.instance),
        Array.from({ length: GALLERY }, (_, n) => gallerySrc(n)),
      );
      assert.deepEqual(
        items.map((item) => item.position),
        Array.from({ length: GALLERY }, (_, n) => n + 1),
      );
      assert.deepEqual(items[0], {
        ruleId: 'images/alt-missing',
        pageId: gallery,
        url: site.url('/gallery'),
        severity: 'warning',
        instance: gallerySrc(0),
        detail: `${GALLERY} of ${GALLERY} images`,
        position: 1,
        count: GALLERY,
        kept: GALLERY,
      });

      const detail = (await t.request('GET', `/api/v1/reports/${reportId}/pages/${gallery}`)).body as ReportPageDetail;
      const finding = detail.findings.find((candidate) => candidate.ruleId === 'images/alt-missing');
      assert.deepEqual(
        [finding?.count, finding?.kept, finding?.samples],
        [GALLERY, GALLERY, items.slice(0, 3).map((item) => item.instance)],
      );
    });

    for (const [ruleId, instance] of FORTY_OF_EACH) {
      it(`gives all forty instances of ${ruleId}, whose page facts used to keep a few`, async () => {
        const forty = ids.get('/forty') as string;
        const { items, sizes } = await everyPage(instancesPath(ruleId, `pageId=${forty}&limit=15`));
        assert.deepEqual(sizes, [15, 15, 10]);
        assert.deepEqual(
          items.map((item) => [item.instance, item.position, item.count, item.kept]),
          Array.from({ length: GALLERY }, (_, i) => [instance(i), i + 1, GALLERY, GALLERY]),
        );
      });
    }

    it('keeps a thousand of 1,001 unnamed buttons, and counts them all', async () => {
      const crowded = ids.get('/crowded') as string;
      const { items } = await everyPage(instancesPath('accessibility-basic/button-no-name', `pageId=${crowded}&limit=100`));
      assert.equal(items.length, 1000);
      assert.ok(items.every((item) => item.count === HUGE && item.kept === 1000 && item.detail === '1,001 of 1,001 buttons'));
      assert.deepEqual([items[0]?.instance, items.at(-1)?.instance, items.at(-1)?.position], ['button#b0', 'button#b999', 1000]);
      const detail = (await t.request('GET', `/api/v1/reports/${reportId}/pages/${crowded}`)).body as ReportPageDetail;
      const finding = detail.findings.find((candidate) => candidate.ruleId === 'accessibility-basic/button-no-name');
      assert.deepEqual([finding?.count, finding?.kept, finding?.samples], [HUGE, 1000, ['button#b0', 'button#b1', 'button#b2']]);
    });

    it('gives the forty broken images of a site check too', async () => {
      const gallery = ids.get('/gallery') as string;
      const { items } = await everyPage(instancesPath('images/broken', `pageId=${gallery}&limit=100`));
      assert.deepEqual(
        items.map((item) => item.instance).sort(),
        Array.from({ length: GALLERY }, (_, n) => site.url(gallerySrc(n))),
      );
      assert.deepEqual(
        items.map((item) => item.position),
        Array.from({ length: GALLERY }, (_, n) => n + 1),
      );
      assert.ok(items.every((item) => item.count === GALLERY && item.kept === GALLERY && item.detail === `${GALLERY} URLs`));
    });

    it('lists every page of an issue by URL, and says when a page had more instances than were kept', async () => {
      const { items, sizes } = await everyPage(instancesPath('images/alt-missing', 'limit=100'));
      assert.equal(items.length, GALLERY + 2 + 1000);
      assert.equal(sizes.length, 11);
      const byPage = Map.groupBy(items, (item) => new URL(item.url).pathname);
      assert.deepEqual([...byPage.keys()], ['/gallery', '/huge', '/pair']);
      const huge = byPage.get('/huge') as IssueInstance[];
      assert.ok(huge.every((item) => item.count === HUGE && item.kept === 1000));
      assert.equal(huge.at(-1)?.position, 1000);
      assert.deepEqual(
        byPage.get('/pair')?.map((item) => [item.instance, item.position, item.count, item.kept]),
        [
          ['/ok.png', 1, 2, 2],
          ['/ok.png?second', 2, 2, 2],
        ],
      );
      // A page ending exactly at the end of a URL's instances (the gallery's 40): the next starts at the next URL's first.
      const exact = await everyPage(instancesPath('images/alt-missing', 'limit=40'));
      assert.deepEqual(
        exact.items.map((item) => [item.url, item.position]),
        items.map((item) => [item.url, item.position]),
      );
      assert.equal(exact.sizes[1], 40);
      const hugeDetail = (await t.request('GET', `/api/v1/reports/${reportId}/pages/${ids.get('/huge')}`)).body as ReportPageDetail;
      const finding = hugeDetail.findings.find((candidate) => candidate.ruleId === 'images/alt-missing');
      assert.deepEqual([finding?.count, finding?.kept, finding?.samples.length], [HUGE, 1000, 3]);
    });

    it('reaches every URL of every issue of the report, a finding that lists none as one row without instance', async () => {
      const report = (await t.request('GET', `/api/v1/reports/${reportId}`)).body as { issues: { ruleId: string; pages: number }[] };
      for (const issue of report.issues) {
        const { items } = await everyPage(instancesPath(issue.ruleId, 'limit=100'));
        assert.equal(new Set(items.map((item) => item.url)).size, Math.max(issue.pages, 1), issue.ruleId);
        for (const item of items) if (item.kept === 0) assert.deepEqual([item.instance, item.position], [null, 1], issue.ruleId);
      }
      // A finding about the whole site: the URL its issue names, no page.
      const { items: robots } = await everyPage(instancesPath('robots/missing'));
      assert.deepEqual(
        robots.map((item) => [item.pageId, item.url, item.instance]),
        [[null, site.url('/robots.txt'), site.url('/robots.txt')]],
      );
    });

    it('pages at limit 1 and 100, and refuses limit 0, 101 and a bad cursor', async () => {
      const gallery = ids.get('/gallery') as string;
      const one = await t.request('GET', instancesPath('images/alt-missing', `pageId=${gallery}&limit=1`));
      assert.equal(one.status, 200);
      assert.equal(one.body.length, 1);
      const second = await t.request('GET', nextPage(one) as string);
      assert.deepEqual(
        second.body.map((item: IssueInstance) => item.position),
        [2],
      );
      const hundred = await t.request('GET', instancesPath('images/alt-missing', 'limit=100'));
      assert.equal(hundred.body.length, 100);
      for (const query of [
        'limit=0',
        'limit=101',
        'limit=x',
        'cursor=nonsense',
        `cursor=${Buffer.from('["a",1]').toString('base64url')}`,
      ]) {
        const answer = await t.request('GET', instancesPath('images/alt-missing', query));
        assert.equal(answer.status, 400, query);
        assert.equal(answer.body.code, 'validation_failed', query);
      }
      const unknownField = await t.request('GET', instancesPath('images/alt-missing', 'colour=red'));
      assert.equal(unknownField.status, 400);
    });

    it('exports every instance: a CSV row each, and JSON findings carrying them', async () => {
      const download = (format: string) =>
        fetch(`${t.url}/api/v1/reports/${reportId}/export?format=${format}`, {
          headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
        });
      const lines = (await (await download('csv')).text()).trimEnd().split('\r\n');
      assert.equal(lines[0], 'url,status,rule_id,category,severity,title,count,detail,position,instance,lcp_ms,cls,tbt_ms');
      const gallery = lines.filter((line) => line.startsWith(`${site.url('/gallery')},200,images/alt-missing,`));
      assert.deepEqual(
        gallery,
        Array.from(
          { length: GALLERY },
          (_, n) =>
            `${site.url('/gallery')},200,images/alt-missing,images,warning,Images have no alt attribute,${GALLERY},${GALLERY} of ${GALLERY} images,${n + 1},${gallerySrc(n)},,,`,
        ),
      );
      assert.equal(lines.filter((line) => line.startsWith(`${site.url('/huge')},200,images/alt-missing,`)).length, 1000);

      const json = (await (await download('json')).json()) as {
        pages: { url: string; findings: { ruleId: string; count: number; kept: number; samples: string[]; instances: string[] }[] }[];
      };
      const findingOf = (path: string) =>
        json.pages.find((page) => page.url === site.url(path))?.findings.find((finding) => finding.ruleId === 'images/alt-missing');
      assert.deepEqual(
        findingOf('/gallery')?.instances,
        Array.from({ length: GALLERY }, (_, n) => gallerySrc(n)),
      );
      assert.deepEqual(findingOf('/gallery')?.samples, [0, 1, 2].map(gallerySrc));
      const huge = findingOf('/huge');
      assert.deepEqual([huge?.count, huge?.kept, huge?.instances.length], [HUGE, 1000, 1000]);
    });

    it("gives all forty instances of a custom rule's finding", async () => {
      const pro = await t.createWorkspace({ plan: 'pro' });
      const as = { key: pro.key, team: pro.workspaceId };
      const report = await crawlWithRulePack(t, as, {
        siteUrl: site.url('/'),
        pack: {
          schema: 'loupe.rules/v1',
          name: 'house rules',
          rules: [
            {
              id: 'images/unlabelled',
              title: 'Images nobody described',
              category: 'images',
              severity: 'warning',
              when: { type: 'selector', selector: 'img:not([alt])', test: { op: 'exists' } },
              message: '{{count}} images without alt on {{path}}',
            },
          ],
        },
      });
      const pages = await t.request('GET', `/api/v1/reports/${report.id}/pages?limit=100`, as);
      const gallery = (pages.body as { id: string; url: string }[]).find((page) => page.url === site.url('/gallery'))?.id;
      const path = `/api/v1/reports/${report.id}/issues/${encodeURIComponent('images/unlabelled')}/instances?pageId=${gallery}&limit=15`;
      const { items, sizes } = await everyPage(path, as);
      assert.deepEqual(sizes, [15, 15, 10]);
      assert.deepEqual(
        items.map((item) => item.instance),
        Array.from({ length: GALLERY }, (_, n) => `<img src="${gallerySrc(n)}" width="640" height="480">`),
      );
      assert.ok(items.every((item) => item.count === GALLERY && item.kept === GALLERY));
      assert.equal(items[0]?.detail, `${GALLERY} images without alt on /gallery`);
    });

    it('gives all forty to an agent through the MCP tool, a page at a time, described without REST words', async () => {
      const client = new Client({ name: 'instances-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', t.url), {
          requestInit: { headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId } },
        }),
      );
      try {
        const { tools } = await client.listTools();
        const tool = tools.find((candidate) => candidate.name === 'list_issue_instances');
        assert.ok(tool?.description);
        assert.doesNotMatch(tool.description, /\b(GET|REST|endpoint|query string|Link header)\b|\/api\//);
        assert.match(tool.description, /get_report_page/);
        const instances: IssueInstance[] = [];
        for (let cursor: string | null | undefined; cursor !== null; ) {
          const page = await callOk(client, 'list_issue_instances', {
            reportId,
            ruleId: 'images/alt-missing',
            pageId: ids.get('/gallery'),
            limit: 9,
            ...(cursor ? { cursor } : {}),
          });
          instances.push(...page.items);
          cursor = page.nextCursor;
        }
        assert.deepEqual(
          instances.map((item) => item.instance),
          Array.from({ length: GALLERY }, (_, n) => gallerySrc(n)),
        );
        assert.equal((await callError(client, 'list_issue_instances', { reportId, ruleId: 'hreflang/bad-target' })).code, 'not_found');
      } finally {
        await client.close();
      }
    });

    it('answers 404 for a rule that found nothing, a page not in the report, and another workspace; 400 for a malformed rule', async () => {
      const notFired = await t.request('GET', instancesPath('hreflang/bad-target'));
      assert.equal(notFired.status, 404);
      assert.equal(notFired.body.code, 'not_found');
      assert.equal((await t.request('GET', instancesPath('images/alt-missing', `pageId=${reportId}`))).status, 404);
      assert.equal((await t.request('GET', instancesPath('NOT A RULE'))).status, 400);
      const other = await t.createWorkspace();
      const foreign = await t.request('GET', instancesPath('images/alt-missing'), { key: other.key, team: other.workspaceId });
      assert.equal(foreign.status, 404);
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      const { items } = await everyPage(instancesPath('images/alt-missing', `pageId=${ids.get('/gallery')}&limit=100`), { key: viewer });
      assert.equal(items.length, GALLERY);
    });
  });
}
