import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PageLink } from '@loupe/contract';
import { htmlPage } from '../testing/html-page.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const LONG_ANCHOR = `${'A tag with a very long name '.repeat(10)}indeed`;
/** After the long anchor, 11 more distinct ones and a repeat: 13 occurrences, 10 anchors kept. */
const TAGS = [LONG_ANCHOR, ...Array.from({ length: 11 }, (_, n) => `Tag ${n + 1}`), 'Tag 1'];

for (const dialect of testDialects()) {
  describe(`a link named several times by one page (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let reportId: string;
    const ids = new Map<string, string>();

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, resolve: loopbackResolver().resolve });
      site = await startTestSite({
        pages: {
          '/': htmlPage({
            path: '/',
            title: 'A home page naming its links more than once',
            links: [
              { href: '/missing', text: 'Docs' },
              { href: '/mixed', text: 'Mixed, not followed', rel: 'nofollow' },
              { href: '/missing', text: 'Read the docs' },
              { href: '/mixed', text: 'Mixed, followed' },
              { href: '/about', text: 'About' },
              { href: '/about', text: 'About', rel: 'nofollow' },
              { href: '/about', text: 'About', rel: 'nofollow ugc' },
              { href: '/private', text: 'Private', rel: 'nofollow' },
              { href: '/private', text: 'Private', rel: 'nofollow sponsored' },
              ...TAGS.map((text) => ({ href: '/tags', text })),
              { href: '/missing', text: 'See the docs' },
            ],
            images: [
              { src: '/logo.png', alt: 'Logo' },
              { src: '/logo.png', alt: 'Our logo' },
            ],
          }),
          '/about': htmlPage({ path: '/about', title: 'About us', links: ['/', { href: '/missing', text: 'Missing again' }] }),
          '/mixed': htmlPage({ path: '/mixed', title: 'Linked both ways', links: ['/about'] }),
          '/tags': htmlPage({ path: '/tags', title: 'Tags' }),
          '/logo.png': { body: Buffer.from('not really a png'), contentType: 'image/png' },
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

    const walk = async (path: string): Promise<PageLink[]> => {
      const found: PageLink[] = [];
      for (let next: string | undefined = path; next; ) {
        const answer: HttpAnswer = await t.request('GET', next);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        found.push(...answer.body);
        next = nextPage(answer);
      }
      return found;
    };
    const outlinks = () => walk(`/api/v1/reports/${reportId}/pages/${ids.get('/')}/outlinks?limit=100`);
    const toTarget = (items: PageLink[], path: string, kind: PageLink['kind'] = 'link') =>
      items.filter((link) => link.targetUrl === site.url(path) && link.kind === kind);
    const docs = { anchor: 'Docs', anchors: ['Docs', 'Read the docs', 'See the docs'], occurrences: 3 };
    const pick = (link: PageLink | undefined) => ({ anchor: link?.anchor, anchors: link?.anchors, occurrences: link?.occurrences });

    it('keeps one row a target, with its occurrences and every distinct anchor in page order', async () => {
      const items = await outlinks();
      const missing = toTarget(items, '/missing');
      assert.equal(missing.length, 1);
      assert.deepEqual(pick(missing[0]), docs);
      assert.equal(missing[0]?.status, 404);
      const logo = toTarget(items, '/logo.png', 'image');
      assert.deepEqual(
        logo.map((link) => [link.anchor, link.anchors, link.occurrences]),
        [['Logo', ['Logo', 'Our logo'], 2]],
      );
      assert.equal(new Set(items.map((link) => `${link.kind} ${link.targetUrl}`)).size, items.length);
    });

    it('keeps at most 10 distinct anchors of at most 200 characters, and counts every occurrence', async () => {
      const [tags] = toTarget(await outlinks(), '/tags');
      assert.equal(tags?.occurrences, TAGS.length);
      assert.equal(tags?.anchors.length, 10);
      assert.deepEqual(tags?.anchors, [LONG_ANCHOR.slice(0, 200), ...TAGS.slice(1, 10)]);
      assert.equal(tags?.anchor, LONG_ANCHOR.slice(0, 200));
    });

    it('calls a link nofollow only when every occurrence is, and says when they disagree', async () => {
      const items = await outlinks();
      const [mixed] = toTarget(items, '/mixed');
      assert.deepEqual(
        [mixed?.nofollow, mixed?.partlyNofollow, mixed?.occurrences, mixed?.status, mixed?.reason],
        [false, true, 2, 200, null],
      );
      assert.deepEqual(mixed?.anchors, ['Mixed, not followed', 'Mixed, followed']);
      assert.ok(ids.has('/mixed'), 'the followed occurrence queued the target');
      const [about] = toTarget(items, '/about');
      assert.deepEqual(
        [about?.nofollow, about?.partlyNofollow, about?.ugc, about?.anchors, about?.occurrences],
        [false, true, false, ['About'], 3],
      );
      const [hidden] = toTarget(items, '/private');
      assert.deepEqual(
        [hidden?.nofollow, hidden?.partlyNofollow, hidden?.sponsored, hidden?.anchors, hidden?.occurrences, hidden?.reason],
        [true, false, false, ['Private'], 2, 'not checked: nofollow'],
      );
    });

    it("shows the same occurrences and anchors in the target's inlinks and the report's links", async () => {
      const expected = [
        [site.url('/'), docs],
        [site.url('/about'), { anchor: 'Missing again', anchors: ['Missing again'], occurrences: 1 }],
      ];
      const inlinks = await walk(`/api/v1/reports/${reportId}/pages/${ids.get('/missing')}/inlinks?limit=1`);
      assert.deepEqual(inlinks.map((link) => [link.sourceUrl, pick(link)]).sort(), expected.sort());
      const broken = await walk(`/api/v1/reports/${reportId}/links?statusClass=4xx&limit=1`);
      assert.deepEqual(broken.map((link) => [link.sourceUrl, pick(link)]).sort(), expected.sort());
      const mixed = (await walk(`/api/v1/reports/${reportId}/links?limit=100`)).filter((link) => link.targetUrl === site.url('/mixed'));
      assert.deepEqual(
        mixed.map((link) => [link.occurrences, link.nofollow, link.partlyNofollow]),
        [[2, false, true]],
      );
    });

    it('exports the occurrences and the other anchors of broken links as CSV and JSON', async () => {
      const download = (format: string) =>
        fetch(`${t.url}/api/v1/reports/${reportId}/links/export?format=${format}`, {
          headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
        });
      const lines = (await (await download('csv')).text()).trimEnd().split('\r\n');
      assert.equal(
        lines[0],
        'source,target,anchor,other_anchors,occurrences,kind,element,nofollow,partly_nofollow,sponsored,ugc,status,final_url,reason',
      );
      assert.deepEqual(
        lines.slice(1).sort(),
        [
          `${site.url('/')},${site.url('/missing')},Docs,Read the docs | See the docs,3,link,a,,,,,404,,`,
          `${site.url('/about')},${site.url('/missing')},Missing again,,1,link,a,,,,,404,,`,
        ].sort(),
      );
      const json = (await (await download('json')).json()) as { links: PageLink[] };
      assert.deepEqual(
        json.links.map((link) => [link.sourceUrl, pick(link)]).sort(),
        [
          [site.url('/'), docs],
          [site.url('/about'), { anchor: 'Missing again', anchors: ['Missing again'], occurrences: 1 }],
        ].sort(),
      );
    });
  });
}
