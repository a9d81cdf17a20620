import assert from 'node:assert/strict';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  brokenLinksSite,
  duplicatesSite,
  externalSite,
  generatedDefects,
  generatedSite,
  orphansSite,
  redirectsSite,
  robotsSite,
} from './fixture-sites.ts';
import { htmlPage } from './html-page.ts';
import { ORIGIN, resolvePage, type SiteDefinition, startTestSite, type TestSite } from './test-site.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A plain node:http GET (no redirects followed, no decompression, no Accept-Encoding unless given). */
function get(url: string, options: { method?: string; headers?: Record<string, string>; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Visible words as the catalog counts them: body text without script, style, noscript and template. */
function visibleWords(html: string): number {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? '';
  const text = body.replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  return text.split(/\s+/).filter(Boolean).length;
}

function metaContent(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  return new RegExp(`<meta ${attribute}="${key}" content="([^"]*)">`).exec(html)?.[1];
}

function hrefs(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)"/g)].map((match) => match[1]);
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
}

async function withSite(site: SiteDefinition, run: (served: TestSite) => Promise<void>): Promise<void> {
  const served = await startTestSite(site);
  try {
    await run(served);
  } finally {
    await served.close();
  }
}

describe('startTestSite serves each kind of page', () => {
  let site: TestSite;
  before(async () => {
    site = await startTestSite({
      pages: {
        '/': htmlPage({ path: '/', title: 'The home page of a served test site' }),
        '/search?q=widgets': '<!doctype html><title>Search results</title>',
        '/teapot': {
          status: 418,
          headers: { 'x-extra': 'yes', 'x-frame-options': null },
          body: 'short and stout',
          contentType: 'text/plain',
        },
        '/report.pdf': { body: 'not really html', contentType: 'application/pdf' },
        '/plain-big': { body: 'x'.repeat(5000), compress: false },
        '/origin': { body: `canonical is ${ORIGIN}/origin`, contentType: 'text/plain' },
        '/old': { redirect: '/new', status: 308 },
        '/away': { redirect: `${ORIGIN}/new` },
        '/busy': { status: 429, retryAfter: 2, thenServe: 'ready now' },
        '/busier': { status: 503, retryAfter: 1, times: 2, thenServe: { redirect: '/' } },
        '/slow': { body: 'slow', delayMs: 100 },
        '/fast': 'fast',
        '/large': { largeBody: 3 * 1024 * 1024 + 17, declareLength: true },
        '/large-chunked': { largeBody: 200_000 },
      },
      robotsTxt: 'User-agent: *\nDisallow: /private/\n',
      sitemaps: {
        '/sitemap.xml': `<urlset><url><loc>${ORIGIN}/</loc></url></urlset>`,
        '/sitemap-gz.xml.gz': { gzip: `<urlset><url><loc>${ORIGIN}/teapot</loc></url></urlset>` },
        '/raw.xml.gz': gzipSync('<urlset></urlset>'),
      },
    });
  });
  after(() => site.close());

  it('serves an HTML string as a 200 text/html page with the secure headers', async () => {
    const answer = await get(site.url('/'));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.equal(answer.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(Number(answer.headers['content-length']), answer.body.length);
    assert.match(answer.text, /<title>The home page of a served test site<\/title>/);
  });

  it('gzips text pages of 1 KiB or more only for clients that accept gzip', async () => {
    const gzipped = await get(site.url('/'), { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.equal(gzipped.headers.vary, 'Accept-Encoding');
    assert.equal(gunzipSync(gzipped.body).toString('utf8'), (await get(site.url('/'))).text);
    const optedOut = await get(site.url('/plain-big'), { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(optedOut.headers['content-encoding'], undefined);
    assert.equal(optedOut.body.length, 5000);
  });

  it('serves the status, headers, body and content type a page asks for, and removes a site header set to null', async () => {
    const answer = await get(site.url('/teapot'));
    assert.equal(answer.status, 418);
    assert.equal(answer.headers['x-extra'], 'yes');
    assert.equal(answer.headers['x-frame-options'], undefined);
    assert.equal(answer.headers['content-type'], 'text/plain');
    assert.equal(answer.text, 'short and stout');
    assert.equal((await get(site.url('/report.pdf'))).headers['content-type'], 'application/pdf');
  });

  it('matches a page key with its query before the bare path, and answers 404 for unknown paths', async () => {
    assert.equal((await get(site.url('/search?q=widgets'))).status, 200);
    assert.equal((await get(site.url('/search?q=gadgets'))).status, 404);
    const missing = await get(site.url('/nowhere'));
    assert.equal(missing.status, 404);
    assert.match(missing.text, /Not found/);
  });

  it('puts its own origin where a definition wrote ORIGIN', async () => {
    assert.equal((await get(site.url('/origin'))).text, `canonical is ${site.origin}/origin`);
    assert.equal((await get(site.url('/away'))).headers.location, `${site.origin}/new`);
  });

  it('redirects with the given status and Location, 301 by default', async () => {
    const moved = await get(site.url('/old'));
    assert.equal(moved.status, 308);
    assert.equal(moved.headers.location, '/new');
    assert.equal((await get(site.url('/away'))).status, 301);
  });

  it('answers 429 with Retry-After first, then the page', async () => {
    const first = await get(site.url('/busy'));
    assert.equal(first.status, 429);
    assert.equal(first.headers['retry-after'], '2');
    const second = await get(site.url('/busy'));
    assert.equal(second.status, 200);
    assert.equal(second.text, 'ready now');
  });

  it('answers 503 as many times as asked before serving the page', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(site.url('/busier'))).status);
    assert.deepEqual(statuses, [503, 503, 301]);
  });

  it('delays a page without holding up the others', async () => {
    const finished: string[] = [];
    const slow = get(site.url('/slow')).then(() => finished.push('/slow'));
    await site.requests.waitFor('/slow');
    await get(site.url('/fast')).then(() => finished.push('/fast'));
    await slow;
    assert.deepEqual(finished, ['/fast', '/slow']);
  });

  it('streams a large body with its declared length, or chunked', async () => {
    const declared = await get(site.url('/large'));
    assert.equal(Number(declared.headers['content-length']), 3 * 1024 * 1024 + 17);
    assert.equal(declared.body.length, 3 * 1024 * 1024 + 17);
    const chunked = await get(site.url('/large-chunked'));
    assert.equal(chunked.headers['transfer-encoding'], 'chunked');
    assert.equal(chunked.body.length, 200_000);
  });

  it('survives a client that stops reading a large body', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(site.url('/large'), { agent: false }, (res) => {
        res.once('data', () => req.destroy());
        res.on('error', () => {});
      });
      req.on('error', () => {});
      req.on('close', () => resolve());
      req.on('timeout', reject);
      req.end();
    });
    assert.equal((await get(site.url('/fast'))).text, 'fast');
  });

  it('serves robots.txt as text', async () => {
    const robots = await get(site.url('/robots.txt'));
    assert.equal(robots.status, 200);
    assert.equal(robots.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(robots.text, 'User-agent: *\nDisallow: /private/\n');
  });

  it('serves sitemaps as XML, gzip children as application/gzip that decompress, and buffers as given', async () => {
    const plain = await get(site.url('/sitemap.xml'));
    assert.equal(plain.headers['content-type'], 'application/xml; charset=utf-8');
    assert.deepEqual(locs(plain.text), [`${site.origin}/`]);
    const gzipped = await get(site.url('/sitemap-gz.xml.gz'), { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzipped.headers['content-type'], 'application/gzip');
    assert.equal(gzipped.headers['content-encoding'], undefined);
    assert.deepEqual(locs(gunzipSync(gzipped.body).toString('utf8')), [`${site.origin}/teapot`]);
    const raw = await get(site.url('/raw.xml.gz'));
    assert.equal(gunzipSync(raw.body).toString('utf8'), '<urlset></urlset>');
  });

  it('answers HEAD with headers only and refuses other methods', async () => {
    const head = await get(site.url('/'), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.ok(Number(head.headers['content-length']) > 1000);
    assert.equal(head.body.length, 0);
    const post = await get(site.url('/'), { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });
});

describe('the request log', () => {
  it('records method, path with query, user agent, arrival time and connection, in order', async () => {
    await withSite({ pages: { '/a': 'a', '/b': 'b' } }, async (site) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      await get(site.url('/a?x=1'), { headers: { 'user-agent': 'LoupeTest/1.0' }, agent });
      await get(site.url('/b'), { method: 'HEAD', agent });
      agent.destroy();
      const [first, second] = site.requests.entries;
      assert.deepEqual([first.method, first.path, first.userAgent], ['GET', '/a?x=1', 'LoupeTest/1.0']);
      assert.deepEqual([second.method, second.path], ['HEAD', '/b']);
      assert.ok(second.time >= first.time);
      assert.equal(second.connection, first.connection, 'keep-alive reuses the connection');
      assert.deepEqual(site.requests.paths(), ['/a?x=1', '/b']);
      assert.equal(site.requests.count('/b'), 1);
      assert.equal(site.requests.total, 2);
    });
  });

  it('tracks the most requests in flight at once', async () => {
    const paths = ['/hang/1', '/hang/2', '/hang/3'];
    const site = await startTestSite({ pages: {}, fallback: () => ({ hang: 'before-headers' }) });
    const answers = paths.map((path) => get(site.url(path)).catch(() => 'closed'));
    await Promise.all(paths.map((path) => site.requests.waitFor(path)));
    assert.equal(site.requests.inFlight, 3);
    await site.close();
    assert.deepEqual(await Promise.all(answers), ['closed', 'closed', 'closed']);
    assert.equal(site.requests.peakInFlight, 3);
    assert.equal(site.requests.inFlight, 0);
  });

  it('counts without keeping entries when started with record: false', async () => {
    const site = await startTestSite({ pages: { '/': 'home' } }, { record: false });
    await get(site.url('/'));
    await site.close();
    assert.equal(site.requests.total, 1);
    assert.equal(site.requests.entries.length, 0);
  });
});

describe('hanging responses', () => {
  for (const hang of ['before-headers', 'mid-body'] as const) {
    it(`closes cleanly while a response hangs ${hang}`, async () => {
      const site = await startTestSite({ pages: { '/hang': { hang } } });
      const answer = get(site.url('/hang'));
      await site.requests.waitFor('/hang');
      await site.close();
      await assert.rejects(answer);
    });
  }
});

describe('fallback', () => {
  it('asks the fallback for paths not in pages, with their query, and answers 404 when it has nothing', async () => {
    const seen: string[] = [];
    await withSite(
      { pages: {}, fallback: (path) => (seen.push(path), path.startsWith('/items/') ? `item ${path}` : undefined) },
      async (site) => {
        assert.equal((await get(site.url('/items/7?ref=home'))).text, 'item /items/7?ref=home');
        assert.equal((await get(site.url('/other'))).status, 404);
        assert.equal((await get(site.url('/robots.txt'))).status, 404);
        assert.deepEqual(seen, ['/items/7?ref=home', '/other', '/robots.txt']);
      },
    );
  });

  it('serves robots.txt with the status it is given', async () => {
    await withSite({ pages: {}, robotsTxt: { status: 503 } }, async (site) => {
      assert.equal((await get(site.url('/robots.txt'))).status, 503);
    });
  });
});

describe('htmlPage', () => {
  it('builds by default a page that passes the page-scope checks of the catalog', () => {
    const html = htmlPage({ path: '/about', title: 'About the Loupe test company and its team' });
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    assert.ok([...title].length >= 30 && [...title].length <= 60, title);
    const description = metaContent(html, 'name', 'description') ?? '';
    assert.ok([...description].length >= 70 && [...description].length <= 160, description);
    assert.equal(html.match(/<h1>/g)?.length, 1);
    assert.ok(visibleWords(html) > 200);
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<meta charset="utf-8">/);
    assert.equal(metaContent(html, 'name', 'viewport'), 'width=device-width, initial-scale=1');
    assert.match(html, new RegExp(`<link rel="canonical" href="${ORIGIN}/about">`));
    for (const property of ['og:title', 'og:description', 'og:image', 'og:url'])
      assert.ok(metaContent(html, 'property', property), property);
    assert.ok(metaContent(html, 'name', 'twitter:card'));
    assert.deepEqual(hrefs(html), ['/']);
  });

  it('keeps the default title and description within bounds', () => {
    const html = htmlPage();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    assert.ok(title.length >= 30 && title.length <= 60);
    const description = metaContent(htmlPage({ title: 'x'.repeat(200) }), 'name', 'description') ?? '';
    assert.ok(description.length >= 70 && description.length <= 160);
  });

  it('omits each part set to null or false, and writes an empty title for an empty string', () => {
    const html = htmlPage({
      title: null,
      description: null,
      h1: null,
      body: null,
      canonical: null,
      lang: null,
      og: null,
      twitterCard: null,
      viewport: false,
      charset: false,
      links: [],
    });
    for (const absent of [
      '<title',
      'name="description"',
      '<h1',
      'rel="canonical"',
      'lang=',
      'og:',
      'twitter:',
      'viewport',
      'charset',
      '<a ',
    ]) {
      assert.ok(!html.includes(absent), absent);
    }
    assert.match(htmlPage({ title: '' }), /<title><\/title>/);
  });

  it('writes links, images, robots, hreflang, JSON-LD and extra head as given', () => {
    const html = htmlPage({
      links: ['/shop/blue-widgets', { href: '/x', text: 'click here', rel: 'nofollow' }],
      images: [{ src: '/a.png' }, { src: '/b.png', alt: null, width: null }],
      robots: 'noindex',
      hreflang: { en: 'https://example.test/en', 'x-default': 'https://example.test/' },
      jsonLd: { '@type': 'Article', headline: '</script>' },
      og: { 'og:image': null },
      extraHead: '<meta http-equiv="refresh" content="0">',
    });
    assert.match(html, /<a href="\/shop\/blue-widgets">Blue widgets<\/a>/);
    assert.match(html, /<a href="\/x" rel="nofollow">click here<\/a>/);
    assert.match(html, /<img src="\/a.png" alt="[^"]+" width="640" height="480">/);
    assert.match(html, /<img src="\/b.png" height="480">/);
    assert.equal(metaContent(html, 'name', 'robots'), 'noindex');
    assert.match(html, /<link rel="alternate" hreflang="x-default" href="https:\/\/example.test\/">/);
    assert.match(html, /"headline":"\\u003c\/script>"/);
    assert.equal(metaContent(html, 'property', 'og:image'), undefined);
    assert.match(html, /http-equiv="refresh"/);
    assert.match(htmlPage({ jsonLd: '{ not json' }), /<script type="application\/ld\+json">\{ not json<\/script>/);
  });

  it('gives pages with different paths different prose, and the same path the same prose', () => {
    assert.equal(htmlPage({ path: '/a' }), htmlPage({ path: '/a' }));
    const words = (path: string) => new Set(/<main>([\s\S]*)<\/main>/.exec(htmlPage({ path, h1: null }))?.[1].split(/\W+/));
    const a = words('/a');
    const shared = [...words('/b')].filter((word) => a.has(word)).length;
    assert.notEqual(htmlPage({ path: '/a' }), htmlPage({ path: '/b' }));
    assert.ok(shared < a.size, 'not the same text');
    assert.ok(visibleWords(htmlPage({ words: 40 })) < 100);
  });
});

describe('fixture sites', () => {
  it('brokenLinksSite answers 404, 410, 500, 403 and 429 where it says, and its external link 404s on the other server', async () => {
    const external = await startTestSite(externalSite());
    const definition = brokenLinksSite({ externalOrigin: external.origin });
    const { known } = definition;
    await withSite(definition, async (site) => {
      const status = async (url: string) => (await get(url.startsWith('http') ? url : site.url(url))).status;
      assert.deepEqual(
        await Promise.all(
          [
            known.ok,
            known.missing,
            known.gone,
            known.serverError,
            known.forbidden,
            known.rateLimited,
            known.externalOk,
            known.externalMissing,
            known.image,
            known.brokenImage,
          ].map(status),
        ),
        [200, 404, 410, 500, 403, 429, 200, 404, 200, 404],
      );
      const home = (await get(site.url('/'))).text;
      for (const link of [known.missing, known.gone, known.serverError, known.externalMissing]) assert.ok(hrefs(home).includes(link), link);
      assert.match(home, new RegExp(`<img src="${known.brokenImage}"`));
      assert.ok(!hrefs((await get(site.url(known.ok))).text).some((link) => [known.missing, known.gone, known.serverError].includes(link)));
    });
    await external.close();
  });

  it('redirectsSite has a 301 → 302 → 200 chain, a five-redirect chain, loops and a redirect to another origin', async () => {
    const definition = redirectsSite({ externalOrigin: 'http://127.0.0.1:9' });
    const { known } = definition;
    await withSite(definition, async (site) => {
      const hop = async (path: string) => {
        const answer = await get(site.url(path));
        return [answer.status, answer.headers.location];
      };
      assert.deepEqual(await Promise.all(known.chain.map(hop)), [
        [301, known.chain[1]],
        [302, known.chain[2]],
        [200, undefined],
      ]);
      assert.deepEqual(
        (await Promise.all(known.longChain.map(hop))).map(([statusCode]) => statusCode),
        [301, 302, 307, 308, 303, 200],
      );
      assert.deepEqual(await hop(known.loop[0]), [301, known.loop[1]]);
      assert.deepEqual(await hop(known.loop[1]), [302, known.loop[0]]);
      assert.deepEqual(await hop(known.selfLoop), [301, known.selfLoop]);
      assert.deepEqual(await hop('/endless/41'), [302, '/endless/42']);
      assert.deepEqual(await hop(known.toExternal), [302, known.externalTarget]);
    });
  });

  it('robotsSite lists its sitemap index in robots.txt, and the gzip child names a page only it knows', async () => {
    const definition = robotsSite();
    const { known } = definition;
    await withSite(definition, async (site) => {
      const robots = (await get(site.url('/robots.txt'))).text;
      assert.match(robots, /Crawl-delay: 1\n/);
      assert.match(robots, /Allow: \/private\/open\//);
      assert.ok(robots.includes(`Sitemap: ${site.url(known.sitemapIndex)}`));
      assert.deepEqual(locs((await get(site.url(known.sitemapIndex))).text), known.sitemaps.map(site.url));
      const gzipChild = gunzipSync((await get(site.url(known.sitemaps[1]))).body).toString('utf8');
      assert.ok(locs(gzipChild).includes(site.url(known.onlyInGzipSitemap)));
      assert.ok(locs((await get(site.url(known.sitemaps[0]))).text).includes(site.url(known.noindexMeta)));
      assert.equal((await get(site.url(known.noindexHeader))).headers['x-robots-tag'], 'noindex');
      assert.ok(!hrefs((await get(site.url('/'))).text).includes(known.onlyInSitemap));
    });
  });

  it('duplicatesSite shares titles, descriptions and content where it says, and its near copy differs by one word', () => {
    const definition = duplicatesSite();
    const { known } = definition;
    const html = (path: string) => resolvePage(definition, path) as string;
    const titleOf = (path: string) => /<title>([^<]*)<\/title>/.exec(html(path))?.[1];
    const textOf = (path: string) => /<body>([\s\S]*)<\/body>/.exec(html(path))?.[1];
    assert.equal(titleOf(known.duplicateTitle[0]), titleOf(known.duplicateTitle[1]));
    for (const path of known.sameTitleExcluded) assert.equal(titleOf(path), titleOf(known.duplicateTitle[0]));
    const [gadgetOne, gadgetTwo] = known.duplicateDescription.map((path) => metaContent(html(path), 'name', 'description'));
    assert.equal(gadgetOne, gadgetTwo);
    assert.equal(textOf(known.duplicateContent[0]), textOf(known.duplicateContent[1]));
    assert.notEqual(titleOf(known.duplicateContent[0]), titleOf(known.duplicateContent[1]));
    const [original, near] = known.nearDuplicate.map((path) => textOf(path)?.split(/\s+/) ?? []);
    assert.equal(original.length, near.length);
    assert.equal(original.filter((word, i) => word !== near[i]).length, 1);
    assert.ok(visibleWords(html(known.nearDuplicate[1])) > 1000);
    assert.ok(!html(known.missingTitle).includes('<title'));
    assert.match(html(known.emptyTitle), /<title><\/title>/);
    assert.match(html(known.canonicalToMissing.page), new RegExp(`rel="canonical" href="${ORIGIN}${known.canonicalToMissing.canonical}"`));
    assert.equal(resolvePage(definition, known.canonicalToMissing.canonical), resolvePage(definition, '/nowhere'));
  });

  it('orphansSite lists pages in its sitemap that no page links to', () => {
    const definition = orphansSite();
    const { known } = definition;
    const linked = new Set(Object.values(definition.pages).flatMap((page) => hrefs(page as string)));
    for (const orphan of [...known.orphans, known.orphanNoindex]) {
      assert.ok(!linked.has(orphan), orphan);
      assert.ok(definition.sitemaps['/sitemap.xml'].includes(`${ORIGIN}${orphan}<`), orphan);
    }
    assert.ok(linked.has(known.linkedFromOrphan));
  });
});

describe('generatedSite', () => {
  const tenThousand = generatedSite(10_000);

  it('serves page 9,999 as a 5–10 KB page, and 404 past the last page', async () => {
    await withSite(tenThousand, async (site) => {
      const page = await get(site.url('/pages/9999'));
      assert.equal(page.status, 200);
      assert.match(page.text, /<title>Generated page 9999 of the Loupe test site<\/title>/);
      assert.ok(page.body.length >= 5_000 && page.body.length <= 10_000, `${page.body.length} bytes`);
      assert.equal((await get(site.url('/pages/10000'))).status, 404);
      assert.equal((await get(site.url('/pages/012'))).status, 404);
    });
  });

  it('lists every page, and the orphan, in a sitemap index of several sitemaps named in robots.txt', async () => {
    await withSite(tenThousand, async (site) => {
      assert.match((await get(site.url('/robots.txt'))).text, new RegExp(`Sitemap: ${site.url('/sitemap.xml')}`));
      const children = locs((await get(site.url('/sitemap.xml'))).text);
      assert.equal(children.length, 5);
      const listed = (await Promise.all(children.map(async (child) => locs((await get(child)).text)))).flat();
      const expected = [...Array.from({ length: 10_000 }, (_, n) => site.url(tenThousand.pathOf(n))), site.url(generatedDefects.orphan)];
      assert.deepEqual(listed, expected);
    });
  });

  it('reaches every page from the home page within 6 clicks', () => {
    const depth = new Map<string, number>([['/', 0]]);
    const queue = ['/'];
    for (let i = 0; i < queue.length; i++) {
      const page = resolvePage(tenThousand, queue[i]);
      if (typeof page !== 'string') continue;
      for (const link of hrefs(page)) {
        if (depth.has(link)) continue;
        depth.set(link, depth.get(queue[i])! + 1);
        queue.push(link);
      }
    }
    const pages = [...depth].filter(([path]) => tenThousand.numberOf(path) !== undefined);
    assert.equal(pages.length, 10_000);
    assert.ok(Math.max(...pages.map(([, d]) => d)) <= 6);
    assert.ok(!depth.has(generatedDefects.orphan));
  });

  it('links each page to about ten others', () => {
    for (const n of [0, 1, 500, 4321, 9999]) {
      const links = tenThousand.linksOf(n);
      assert.equal(links.length, 10, `page ${n}`);
      assert.ok(!links.includes(n));
      assert.deepEqual(hrefs(resolvePage(tenThousand, tenThousand.pathOf(n)) as string).slice(0, 10), links.map(tenThousand.pathOf));
    }
  });

  it('serves the same site for the same seed and another for another seed', () => {
    const again = generatedSite(10_000);
    const reseeded = generatedSite(10_000, { seed: 2 });
    for (const path of ['/', '/pages/1234', '/sitemaps/pages-3.xml'])
      assert.deepEqual(resolvePage(again, path), resolvePage(tenThousand, path));
    assert.notEqual(resolvePage(reseeded, '/pages/1234'), resolvePage(tenThousand, '/pages/1234'));
    assert.notDeepEqual(reseeded.linksOf(1234), tenThousand.linksOf(1234));
  });

  it('has its documented defects', async () => {
    const d = generatedDefects;
    const html = (path: string) => resolvePage(tenThousand, path) as string;
    const titleOf = (path: string) => /<title>([^<]*)<\/title>/.exec(html(path))?.[1];
    assert.ok(hrefs(html(d.brokenLink.page)).includes(d.brokenLink.target));
    assert.ok(hrefs(html(d.serverErrorLink.page)).includes(d.serverErrorLink.target));
    assert.ok(hrefs(html(d.redirectedLink.page)).includes(d.redirectedLink.target));
    assert.equal(titleOf(d.missingTitle), undefined);
    assert.equal(titleOf(d.duplicateTitle[0]), titleOf(d.duplicateTitle[1]));
    assert.equal(...(d.duplicateDescription.map((path) => metaContent(html(path), 'name', 'description')) as [string, string]));
    assert.equal(metaContent(html(d.noindex), 'name', 'robots'), 'noindex');
    assert.match(html(d.imageWithoutAlt.page), new RegExp(`<img src="${d.imageWithoutAlt.image}" width`));
    assert.match(html(d.brokenImage.page), new RegExp(`<img src="${d.brokenImage.image}" alt=`));
    assert.ok(visibleWords(html(d.thin)) < 200);
    assert.ok(visibleWords(html('/pages/71')) > 200);
    assert.match(html(d.canonicalElsewhere.page), new RegExp(`rel="canonical" href="${ORIGIN}${d.canonicalElsewhere.canonical}"`));
    await withSite(tenThousand, async (site) => {
      const statuses = await Promise.all(
        [d.brokenLink.target, d.serverErrorLink.target, d.brokenImage.image, d.imageWithoutAlt.image, d.orphan].map(
          async (path) => (await get(site.url(path))).status,
        ),
      );
      assert.deepEqual(statuses, [404, 500, 404, 200, 200]);
      const moved = await get(site.url(d.redirectedLink.target));
      assert.deepEqual([moved.status, moved.headers.location], [301, d.redirectedLink.location]);
    });
  });

  it('serves 50,000 pages without building them: the last page and the last sitemap', async () => {
    const fifty = generatedSite(50_000);
    await withSite(fifty, async (site) => {
      assert.equal((await get(site.url('/pages/49999'))).status, 200);
      const children = locs((await get(site.url('/sitemap.xml'))).text);
      assert.equal(children.length, 25);
      const last = locs((await get(children.at(-1)!)).text);
      assert.deepEqual(last.slice(-2), [site.url('/pages/49999'), site.url(generatedDefects.orphan)]);
    });
  });
});
