import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PageLink } from '@loupe/contract';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const LONG_ANCHOR = `${'A very long anchor '.repeat(15)}that goes on`;
const MANY = 101;

for (const dialect of testDialects()) {
  describe(`a page's inlinks and outlinks (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let reportId: string;
    /** Page ids of the report by path. */
    const ids = new Map<string, string>();

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
      site = await startTestSite({
        pages: {
          '/': htmlPage({
            path: '/',
            title: 'A home page with links of every sort',
            links: [
              { href: '/about', text: 'About us' },
              { href: '/missing', text: 'A missing page' },
              { href: 'http://gone.invalid/away', text: 'A host that does not exist' },
              { href: '/private', text: 'Not followed', rel: 'nofollow' },
              { href: '/partner', text: 'Our partner', rel: 'sponsored' },
              { href: '/forum', text: 'The forum', rel: 'UGC' },
              { href: '/many', text: LONG_ANCHOR },
              { href: '/old', text: 'The old about page' },
            ],
            images: [{ src: '/logo.png', alt: 'The Loupe logo' }],
          }),
          '/about': htmlPage({ path: '/about', title: 'About us', links: ['/', { href: '/missing', text: 'Missing again' }] }),
          '/partner': htmlPage({ path: '/partner', title: 'A partner' }),
          '/forum': htmlPage({ path: '/forum', title: 'The forum' }),
          '/many': htmlPage({
            path: '/many',
            title: 'A page with many links',
            links: Array.from({ length: MANY }, (_, n) => ({
              href: `/n/${String(n).padStart(3, '0')}`,
              text: `Link ${n}`,
              rel: 'nofollow',
            })),
          }),
          '/old': { redirect: '/about' },
          '/logo.png': { body: Buffer.from('not really a png'), contentType: 'image/png' },
        },
      });
      const report = await crawlToReport(t, { url: site.url('/'), sitemaps: false });
      reportId = report.id;
      const pages = await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=100`);
      assert.equal(pages.status, 200);
      for (const page of pages.body as { id: string; url: string }[]) ids.set(new URL(page.url).pathname, page.id);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const links = async (pageId: string, direction: 'inlinks' | 'outlinks', query = 'limit=100'): Promise<PageLink[]> => {
      const answer = await t.request('GET', `/api/v1/reports/${reportId}/pages/${pageId}/${direction}?${query}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };
    const byTarget = (items: PageLink[], path: string) => items.find((link) => link.targetUrl === site.url(path));

    it("lists a page's outlinks with anchor, element, rel flags and the target's outcome", async () => {
      const home = ids.get('/') as string;
      const items = await links(home, 'outlinks');
      const about = byTarget(items, '/about');
      assert.deepEqual(
        { ...about, targetId: undefined },
        {
          sourceId: home,
          sourceUrl: site.url('/'),
          targetId: undefined,
          targetUrl: site.url('/about'),
          kind: 'link',
          element: 'a',
          anchor: 'About us',
          anchors: ['About us'],
          occurrences: 1,
          nofollow: false,
          partlyNofollow: false,
          sponsored: false,
          ugc: false,
          status: 200,
          finalUrl: null,
          reason: null,
        },
      );
      assert.equal(about?.targetId, ids.get('/about'));

      const missing = byTarget(items, '/missing');
      assert.equal(missing?.status, 404);
      assert.equal(missing?.anchor, 'A missing page');

      const gone = items.find((link) => link.targetUrl === 'http://gone.invalid/away');
      assert.equal(gone?.anchor, 'A host that does not exist');
      assert.equal(gone?.status, null);
      assert.equal(gone?.reason, 'no such host');
      assert.ok(gone?.targetId);

      const notFollowed = byTarget(items, '/private');
      assert.deepEqual(
        [notFollowed?.nofollow, notFollowed?.targetId, notFollowed?.status, notFollowed?.reason],
        [true, null, null, 'not checked: nofollow'],
      );
      const partner = byTarget(items, '/partner');
      assert.deepEqual([partner?.sponsored, partner?.nofollow, partner?.ugc, partner?.status], [true, false, false, 200]);
      const forum = byTarget(items, '/forum');
      assert.deepEqual([forum?.ugc, forum?.sponsored, forum?.status], [true, false, 200]);

      const logo = byTarget(items, '/logo.png');
      assert.deepEqual([logo?.kind, logo?.element, logo?.anchor, logo?.status], ['image', 'img', 'The Loupe logo', 200]);

      // Anchor text is kept up to 200 code points.
      assert.equal(byTarget(items, '/many')?.anchor, LONG_ANCHOR.slice(0, 200));
      const moved = byTarget(items, '/old');
      assert.deepEqual([moved?.status, moved?.finalUrl, moved?.reason], [301, site.url('/about'), null]);
      assert.equal(items.length, 9);
    });

    it('lists the pages linking to a URL, each with its own anchor', async () => {
      const items = await links(ids.get('/missing') as string, 'inlinks');
      assert.deepEqual(
        items.map((link) => [link.sourceUrl, link.anchor, link.status, link.targetUrl]).sort(),
        [
          [site.url('/'), 'A missing page', 404, site.url('/missing')],
          [site.url('/about'), 'Missing again', 404, site.url('/missing')],
        ].sort(),
      );
      const gone = (await links(ids.get('/') as string, 'outlinks')).find((link) => link.targetUrl === 'http://gone.invalid/away');
      const toGone = await links(gone?.targetId as string, 'inlinks');
      assert.deepEqual(
        toGone.map((link) => [link.sourceUrl, link.anchor, link.reason]),
        [[site.url('/'), 'A host that does not exist', 'no such host']],
      );
    });

    it('says when a target was not checked', async () => {
      const unchecked = await crawlToReport(t, { url: site.url('/'), sitemaps: false, checkExternalLinks: false });
      const pages = await t.request('GET', `/api/v1/reports/${unchecked.id}/pages?limit=100`);
      const home = (pages.body as { id: string; url: string }[]).find((page) => page.url === site.url('/'));
      const answer = await t.request('GET', `/api/v1/reports/${unchecked.id}/pages/${home?.id}/outlinks`);
      const gone = (answer.body as PageLink[]).find((link) => link.targetUrl === 'http://gone.invalid/away');
      assert.deepEqual([gone?.status, gone?.reason], [null, 'not checked: turned off']);
      const turnedOff = await t.request('GET', `/api/v1/reports/${unchecked.id}/links?reason=not-checked-turned-off`);
      assert.deepEqual(
        (turnedOff.body as PageLink[]).map((link) => link.targetUrl),
        ['http://gone.invalid/away'],
      );
    });

    it('pages through links with limits 1 and 100, and refuses 0, 101 and foreign cursors', async () => {
      const many = ids.get('/many') as string;
      const all = await links(many, 'outlinks');
      assert.equal(all.length, 100);
      const first = await t.request('GET', `/api/v1/reports/${reportId}/pages/${many}/outlinks?limit=100`);
      const rest = await t.request('GET', nextPage(first) as string);
      assert.equal(rest.status, 200);
      assert.equal(nextPage(rest), undefined);
      const everything = [...first.body, ...rest.body] as PageLink[];
      assert.equal(everything.length, MANY);
      assert.equal(new Set(everything.map((link) => link.targetUrl)).size, MANY);
      assert.ok(everything.every((link) => link.nofollow && link.reason === 'not checked: nofollow'));

      const walked: PageLink[] = [];
      let path: string | undefined = `/api/v1/reports/${reportId}/pages/${ids.get('/')}/outlinks?limit=1`;
      while (path) {
        const answer: HttpAnswer = await t.request('GET', path);
        assert.equal(answer.status, 200);
        assert.ok(answer.body.length <= 1);
        walked.push(...answer.body);
        path = nextPage(answer);
      }
      assert.deepEqual(walked, await links(ids.get('/') as string, 'outlinks'));

      const home = ids.get('/') as string;
      const inlinkWalk: PageLink[] = [];
      path = `/api/v1/reports/${reportId}/pages/${ids.get('/missing')}/inlinks?limit=1`;
      while (path) {
        const answer: HttpAnswer = await t.request('GET', path);
        inlinkWalk.push(...answer.body);
        path = nextPage(answer);
      }
      assert.equal(inlinkWalk.length, 2);

      const foreign = Buffer.from(JSON.stringify({ not: 'a position' })).toString('base64url');
      for (const direction of ['outlinks', 'inlinks']) {
        for (const query of ['limit=0', 'limit=101', 'cursor=nonsense', `cursor=${foreign}`, 'sort=url']) {
          const answer = await t.request('GET', `/api/v1/reports/${reportId}/pages/${home}/${direction}?${query}`);
          assert.equal(answer.status, 400, `${direction}?${query}`);
          assert.equal(answer.body.code, 'validation_failed');
        }
      }
    });

    /** Every link of the report matching the query, walked page by page. */
    const reportLinks = async (query: string, limit = 100): Promise<PageLink[]> => {
      const found: PageLink[] = [];
      let path: string | undefined = `/api/v1/reports/${reportId}/links?limit=${limit}${query ? `&${query}` : ''}`;
      while (path) {
        const answer: HttpAnswer = await t.request('GET', path);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.ok(answer.body.length <= limit);
        found.push(...answer.body);
        path = nextPage(answer);
      }
      return found;
    };

    it('lists the broken links of the whole report with their sources and anchors', async () => {
      const broken = await reportLinks('statusClass=4xx');
      assert.deepEqual(
        broken.map((link) => [link.sourceUrl, link.targetUrl, link.anchor, link.status]).sort(),
        [
          [site.url('/'), site.url('/missing'), 'A missing page', 404],
          [site.url('/about'), site.url('/missing'), 'Missing again', 404],
        ].sort(),
      );
      const failed = await reportLinks('statusClass=failed&target=external');
      assert.deepEqual(
        failed.map((link) => [link.sourceUrl, link.targetUrl, link.anchor, link.reason]),
        [[site.url('/'), 'http://gone.invalid/away', 'A host that does not exist', 'no such host']],
      );
      assert.deepEqual(await reportLinks('statusClass=failed&target=internal'), []);
      assert.deepEqual(await reportLinks('reason=no-such-host'), failed);
      assert.deepEqual(await reportLinks('reason=timed-out'), []);
      const unchecked = await reportLinks('statusClass=not-checked');
      assert.equal(unchecked.length, MANY + 1);
      assert.ok(unchecked.every((link) => link.reason === 'not checked: nofollow'));
      const images = await reportLinks('kind=image');
      assert.deepEqual(
        images.map((link) => [link.element, link.anchor, link.status]),
        [['img', 'The Loupe logo', 200]],
      );
      assert.deepEqual(
        (await reportLinks('statusClass=3xx')).map((link) => [link.targetUrl, link.finalUrl]),
        [[site.url('/old'), site.url('/about')]],
      );
    });

    it("pages through the report's links alike at limits 1 and 100, and refuses bad queries", async () => {
      const all = await reportLinks('');
      assert.equal(new Set(all.map((link) => `${link.sourceId} ${link.kind} ${link.targetUrl}`)).size, all.length);
      assert.ok(all.length > MANY);
      assert.deepEqual(await reportLinks('', 1), all);
      const twoPart = Buffer.from(JSON.stringify(['a', 'b'])).toString('base64url');
      for (const query of [
        'limit=0',
        'limit=101',
        'cursor=nonsense',
        `cursor=${twoPart}`,
        'statusClass=6xx',
        'target=both',
        'kind=script',
        'reason=dns',
      ]) {
        const answer = await t.request('GET', `/api/v1/reports/${reportId}/links?${query}`);
        assert.equal(answer.status, 400, query);
        assert.equal(answer.body.code, 'validation_failed');
      }
    });

    it('exports the broken links as CSV and JSON, with source, anchor, status and reason', async () => {
      const broken = await reportLinks('statusClass=broken');
      assert.deepEqual(
        broken.map((link) => [link.sourceUrl, link.targetUrl, link.anchor, link.status, link.reason]).sort(),
        [
          [site.url('/'), site.url('/missing'), 'A missing page', 404, null],
          [site.url('/about'), site.url('/missing'), 'Missing again', 404, null],
          [site.url('/'), 'http://gone.invalid/away', 'A host that does not exist', null, 'no such host'],
        ].sort(),
      );
      const download = (format: string) =>
        fetch(`${t.url}/api/v1/reports/${reportId}/links/export?format=${format}`, {
          headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
        });
      const csv = await download('csv');
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename="loupe-broken-links-.*\.csv"/);
      const lines = (await csv.text()).trimEnd().split('\r\n');
      assert.equal(
        lines[0],
        'source,target,anchor,other_anchors,occurrences,kind,element,nofollow,partly_nofollow,sponsored,ugc,status,final_url,reason',
      );
      assert.deepEqual(
        lines.slice(1).sort(),
        [
          `${site.url('/')},${site.url('/missing')},A missing page,,1,link,a,,,,,404,,`,
          `${site.url('/about')},${site.url('/missing')},Missing again,,1,link,a,,,,,404,,`,
          `${site.url('/')},http://gone.invalid/away,A host that does not exist,,1,link,a,,,,,,,no such host`,
        ].sort(),
      );
      const json = await download('json');
      assert.equal(json.status, 200);
      assert.deepEqual(((await json.json()) as { links: PageLink[] }).links, broken);
      assert.equal((await download('xml')).status, 400);
      const other = await t.createWorkspace();
      const foreign = await fetch(`${t.url}/api/v1/reports/${reportId}/links/export?format=csv`, {
        headers: { authorization: `Bearer ${other.key}`, 'x-service-team': other.workspaceId },
      });
      assert.equal(foreign.status, 404);
    });

    it("keeps links to the report's workspace, and lets a viewer read them", async () => {
      const home = ids.get('/') as string;
      const other = await t.createWorkspace();
      const as = { key: other.key, team: other.workspaceId };
      const everyLink = `/api/v1/reports/${reportId}/links`;
      assert.equal((await t.request('GET', everyLink, as)).status, 404);
      assert.equal((await t.request('GET', everyLink, { key: await t.createMemberKey(t.owner.workspaceId, 'viewer') })).status, 200);
      for (const direction of ['outlinks', 'inlinks']) {
        const path = `/api/v1/reports/${reportId}/pages/${home}/${direction}`;
        assert.equal((await t.request('GET', path, as)).status, 404, path);
        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        assert.equal((await t.request('GET', path, { key: viewer })).status, 200, path);
        const unknown = `/api/v1/reports/${reportId}/pages/${reportId}/${direction}`;
        assert.equal((await t.request('GET', unknown)).status, 404, unknown);
      }
    });
  });
}
