import assert from 'node:assert/strict';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LinkFailureReason, PageLink } from '@loupe/contract';
import { htmlPage } from '../testing/html-page.ts';
import { testCertificate } from '../testing/test-certificate.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

// Issue #24 point 1: a link whose target fails, for each reason a target can fail, is found
// in the report's link list (by reason), in its page's outlinks and its target's inlinks, and
// in both exports, with the page it is on, its anchor, the status and the reason in words.

/** Images, scripts, stylesheets and links to other sites checked before the cap: every one on the home page. */
const CHECKS = 14;
/** Small, so a target that never answers costs the crawl little. */
const TIMEOUT_MS = 2_000;
/** One more hop than the crawl follows (its limit is 10). */
const HOPS = 12;

/** A loopback server that accepts connections and never answers; closing it drops them. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One failing target and what the report must say of the link to it. */
interface Case {
  name: string;
  /** The path of the page that links to it. */
  from: '/' | '/deep';
  url: string;
  /** Null for a script or stylesheet, which has no text. */
  anchor: string | null;
  kind: PageLink['kind'];
  element: PageLink['element'];
  status: number | null;
  reason: string | null;
  /** The reason= filter that finds it, when it has no answer. */
  slug?: LinkFailureReason;
  target: 'internal' | 'external';
  /** Whether the broken-links export lists it: a target never asked is not known to be broken. */
  broken: boolean;
}

for (const dialect of testDialects()) {
  describe(`a report's links failing for every reason (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let other: TestSite;
    let secure: TestSite;
    let silent: { port: number; close: () => Promise<void> };
    let reportId: string;
    const cases: Case[] = [];
    /** Page ids of the report by path. */
    const ids = new Map<string, string>();

    before(async () => {
      silent = await silentServer();
      const refused = await closedPort();
      secure = await startTestSite(
        { pages: { '/': htmlPage({ path: '/', title: 'Behind a certificate nobody trusts' }) } },
        { tls: testCertificate },
      );
      const hops = Object.fromEntries(Array.from({ length: HOPS }, (_, n) => [`/hop/${n}`, { redirect: `/hop/${n + 1}` }]));
      other = await startTestSite({
        pages: {
          '/error': { status: 500, body: 'It broke', contentType: 'text/plain' },
          '/loop-a': { redirect: '/loop-b' },
          '/loop-b': { redirect: '/loop-a' },
          ...hops,
          [`/hop/${HOPS}`]: htmlPage({ path: `/hop/${HOPS}`, title: 'The end of a long chain' }),
          '/past-the-cap': htmlPage({ path: '/past-the-cap', title: 'Never asked' }),
        },
      });
      const otherUrl = (path: string) => `http://other.test:${new URL(other.origin).port}${path}`;
      // Internal targets are written as paths: their URLs are known once the site listens.
      const internal = (name: string, path: string, fields: Partial<Case>): Case => ({
        name,
        from: '/',
        url: path,
        anchor: name,
        kind: 'link',
        element: 'a',
        status: null,
        reason: null,
        target: 'internal',
        broken: true,
        ...fields,
      });
      const external = (name: string, url: string, fields: Partial<Case>): Case => ({ ...internal(name, url, fields), target: 'external' });
      cases.push(
        internal('An internal page not found', '/missing', { status: 404 }),
        internal('An internal page that fails', '/error', { status: 500 }),
        internal('An internal page that never answers', '/hang', { reason: 'timed out', slug: 'timed-out' }),
        internal('An internal page robots.txt disallows', '/private/page', { reason: 'blocked by robots.txt', slug: 'blocked-by-robots' }),
        // A page's fetch keeps undici's words for a dropped connection (page-fetcher.ts), as the diff shows them.
        internal('An internal page that hangs up', '/hangs-up', {
          reason: 'network error: other side closed',
          slug: 'network-error',
        }),
        internal('An internal redirect loop', '/loop-a', { status: 301, reason: 'redirect loop', slug: 'redirect-loop' }),
        internal('Too many internal redirects', '/hop/0', { status: 301, reason: 'too many redirects', slug: 'too-many-redirects' }),
        internal('An internal image not found', '/gone.png', { kind: 'image', element: 'img', status: 404 }),
        external('Another site’s image not found', otherUrl('/missing.png'), { kind: 'image', element: 'img', status: 404 }),
        internal('An internal script not found', '/missing.js', { kind: 'resource', element: 'script', anchor: null, status: 404 }),
        external('Another site’s stylesheet not found', otherUrl('/missing.css'), {
          kind: 'resource',
          element: 'link',
          anchor: null,
          status: 404,
        }),
        external('A script on a host that does not exist', 'http://gone.invalid/app.js', {
          kind: 'resource',
          element: 'script',
          anchor: null,
          reason: 'no such host',
          slug: 'no-such-host',
        }),
        external('Another site’s missing page', otherUrl('/missing'), { status: 404 }),
        external('Another site’s failing page', otherUrl('/error'), { status: 500 }),
        external('A host that does not exist', 'http://gone.invalid/away', { reason: 'no such host', slug: 'no-such-host' }),
        external('A port nobody listens on', `http://refused.test:${refused}/`, {
          reason: 'connection refused',
          slug: 'connection-refused',
        }),
        external('A server that never answers', `http://silent.test:${silent.port}/never`, { reason: 'timed out', slug: 'timed-out' }),
        external('A certificate nobody trusts', `https://localhost:${new URL(secure.origin).port}/`, {
          reason: 'TLS error',
          slug: 'tls-error',
        }),
        external('Plain http spoken to as https', `https://plain.test:${new URL(other.origin).port}/`, {
          reason: 'TLS error',
          slug: 'tls-error',
        }),
        external('A redirect loop', otherUrl('/loop-a'), { status: 301, reason: 'redirect loop', slug: 'redirect-loop' }),
        external('Too many redirects', otherUrl('/hop/0'), { status: 301, reason: 'too many redirects', slug: 'too-many-redirects' }),
        external('Past the cap', otherUrl('/past-the-cap'), {
          from: '/deep',
          reason: 'not checked: over the cap',
          slug: 'not-checked-over-the-cap',
          broken: false,
        }),
      );
      const onHome = cases.filter((c) => c.from === '/');
      // Every check but the one past the cap is on the home page: checked first, they fill the cap.
      assert.equal(onHome.filter((c) => c.target === 'external' || c.kind !== 'link').length, CHECKS);
      const linksOf = (from: Case['from']) =>
        cases.filter((c) => c.from === from && c.kind === 'link').map((c) => ({ href: c.url, text: c.anchor ?? '' }));
      const resources = onHome
        .filter((c) => c.kind === 'resource')
        .map((c) => (c.element === 'script' ? `<script src="${c.url}"></script>` : `<link rel="stylesheet" href="${c.url}">`));
      site = await startTestSite({
        robotsTxt: 'User-agent: *\nDisallow: /private/\n',
        pages: {
          '/': htmlPage({
            path: '/',
            title: 'A home page linking to targets that fail',
            links: [...linksOf('/'), { href: '/deep', text: 'One click down' }],
            images: onHome.filter((c) => c.kind === 'image').map((c) => ({ src: c.url, alt: c.anchor })),
            extraHead: resources.join(''),
          }),
          '/error': { status: 500, body: 'It broke', contentType: 'text/plain' },
          '/hang': { hang: 'before-headers' },
          '/hangs-up': { drop: true, times: 1_000, thenServe: 'never' },
          '/loop-a': { redirect: '/loop-b' },
          '/loop-b': { redirect: '/loop-a' },
          ...hops,
          [`/hop/${HOPS}`]: htmlPage({ path: `/hop/${HOPS}`, title: 'The end of a long chain' }),
          '/private/page': htmlPage({ path: '/private/page', title: 'Kept from crawlers' }),
          '/deep': htmlPage({ path: '/deep', title: 'A page one click down', links: linksOf('/deep') }),
        },
      });
      for (const c of cases) if (c.target === 'internal') c.url = site.url(c.url);

      t = await startTestServer(dialect, {
        crawlAllowPrivate: true,
        resolve: loopbackResolver().resolve,
        crawlTimeoutMs: TIMEOUT_MS,
        linkChecks: { cap: CHECKS, budgetSeconds: 60 },
      });
      reportId = (await crawlToReport(t, { url: site.url('/'), sitemaps: false })).id;
      const pages = await t.request('GET', `/api/v1/reports/${reportId}/pages?limit=100`);
      assert.equal(pages.status, 200);
      for (const page of pages.body as { id: string; url: string }[]) ids.set(new URL(page.url).pathname, page.id);
    });
    after(async () => {
      await Promise.all([site?.close(), other?.close(), secure?.close(), silent?.close()]);
      await t?.close();
    });

    const get = async (path: string): Promise<PageLink[]> => {
      const found: PageLink[] = [];
      for (let next: string | undefined = path; next; ) {
        const answer: HttpAnswer = await t.request('GET', next);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        found.push(...answer.body);
        next = nextPage(answer);
      }
      return found;
    };
    const reportLinks = (query: string) => get(`/api/v1/reports/${reportId}/links?limit=100&${query}`);
    /** What a test compares of a link: where it is, what it says, and what its target did. */
    const seen = (link: PageLink | undefined) =>
      link && [link.sourceUrl, link.targetUrl, link.kind, link.element, link.anchor, link.status, link.reason];
    const expected = (c: Case) => [site.url(c.from), c.url, c.kind, c.element, c.anchor, c.status, c.reason];

    it("shows each failing target in its page's outlinks and in the target's inlinks", async () => {
      for (const from of ['/', '/deep'] as const) {
        const outlinks = await get(`/api/v1/reports/${reportId}/pages/${ids.get(from)}/outlinks?limit=100`);
        for (const c of cases.filter((c) => c.from === from)) {
          const link = outlinks.find((link) => link.targetUrl === c.url);
          assert.deepEqual(seen(link), expected(c), c.name);
          assert.ok(link?.targetId, `${c.name}: the crawl keeps a row for its target`);
          const inlinks = await get(`/api/v1/reports/${reportId}/pages/${link.targetId}/inlinks?limit=100`);
          assert.deepEqual(inlinks.map(seen), [expected(c)], c.name);
        }
      }
    });

    it('finds each target that gave no answer by its reason, and no other', async () => {
      for (const slug of new Set(cases.flatMap((c) => c.slug ?? []))) {
        const found = await reportLinks(`reason=${slug}`);
        assert.deepEqual(
          found.map(seen).sort(),
          cases
            .filter((c) => c.slug === slug)
            .map(expected)
            .sort(),
          slug,
        );
      }
      assert.deepEqual(await reportLinks('reason=connection-reset'), []);
    });

    it('finds the targets that answered with an error by their status class, internal and external apart', async () => {
      for (const [statusClass, low] of [
        ['4xx', 400],
        ['5xx', 500],
      ] as const) {
        for (const target of ['internal', 'external'] as const) {
          const found = await reportLinks(`statusClass=${statusClass}&target=${target}`);
          const wanted = cases.filter((c) => c.target === target && c.status !== null && c.status >= low && c.status < low + 100);
          assert.ok(wanted.length > 0, `${statusClass} ${target}`);
          assert.deepEqual(found.map(seen).sort(), wanted.map(expected).sort(), `${statusClass} ${target}`);
        }
      }
      const failed = await reportLinks('statusClass=failed');
      assert.deepEqual(
        failed.map(seen).sort(),
        cases
          .filter((c) => c.status === null && c.broken)
          .map(expected)
          .sort(),
      );
      const notChecked = await reportLinks('statusClass=not-checked');
      assert.deepEqual(notChecked.map(seen), cases.filter((c) => !c.broken).map(expected));
    });

    it('lists the scripts and stylesheets a page loads as resources, broken ones with the broken links', async () => {
      const resources = await reportLinks('kind=resource');
      assert.deepEqual(
        resources.map(seen).sort(),
        cases
          .filter((c) => c.kind === 'resource')
          .map(expected)
          .sort(),
      );
      const broken = await reportLinks('kind=resource&statusClass=broken&target=internal');
      assert.deepEqual(broken.map(seen), cases.filter((c) => c.kind === 'resource' && c.target === 'internal').map(expected));
    });

    it("checks another site's scripts and stylesheets only with checkExternalLinks, and the site's own always", async () => {
      const unchecked = await crawlToReport(t, { url: site.url('/'), sitemaps: false, checkExternalLinks: false });
      const found = await get(`/api/v1/reports/${unchecked.id}/links?limit=100&kind=resource`);
      assert.deepEqual(
        found.map(seen).sort(),
        cases
          .filter((c) => c.kind === 'resource')
          .map((c) => ({ ...c, ...(c.target === 'external' && { status: null, reason: 'not checked: turned off' }) }))
          .map(expected)
          .sort(),
      );
    });

    it('exports every broken link as CSV and JSON with its page, anchor, status and reason, and none never asked', async () => {
      const broken = await reportLinks('statusClass=broken');
      assert.deepEqual(
        broken.map(seen).sort(),
        cases
          .filter((c) => c.broken)
          .map(expected)
          .sort(),
      );
      const download = (format: string) =>
        fetch(`${t.url}/api/v1/reports/${reportId}/links/export?format=${format}`, {
          headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
        });
      const json = await download('json');
      assert.equal(json.status, 200);
      assert.deepEqual(((await json.json()) as { links: PageLink[] }).links, broken);
      const csv = await download('csv');
      assert.equal(csv.status, 200);
      const [header, ...rows] = (await csv.text()).trimEnd().split('\r\n');
      assert.equal(
        header,
        'source,target,anchor,other_anchors,occurrences,kind,element,nofollow,partly_nofollow,sponsored,ugc,status,final_url,reason',
      );
      assert.deepEqual(
        rows.sort(),
        broken
          .map((link) =>
            [
              link.sourceUrl,
              link.targetUrl,
              link.anchor,
              '',
              1,
              link.kind,
              link.element,
              '',
              '',
              '',
              '',
              link.status ?? '',
              link.finalUrl ?? '',
              link.reason ?? '',
            ].join(','),
          )
          .sort(),
      );
      for (const c of cases)
        assert.equal(
          rows.some((row) => row.startsWith(`${site.url(c.from)},${c.url},${c.anchor ?? ''},`)),
          c.broken,
          c.name,
        );
    });
  });
}
