import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { type FetchBytes, readSitemaps, SITEMAP_NAMESPACE, type SitemapLimits } from './sitemap-reader.ts';

const limits: SitemapLimits = { maxUrls: 1000, maxFiles: 20, maxBytesPerFile: 1024 * 1024 };

function urlset(...locs: string[]): string {
  const entries = locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="${SITEMAP_NAMESPACE}">${entries}</urlset>`;
}

function sitemapIndex(...locs: string[]): string {
  const entries = locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('');
  return `<sitemapindex xmlns="${SITEMAP_NAMESPACE}">${entries}</sitemapindex>`;
}

/** Serves files from memory (200 for each listed, 404 otherwise) and records every fetch. */
function site(files: Record<string, string | Buffer>): FetchBytes & { fetched: string[] } {
  const fetched: string[] = [];
  const fetchBytes = async (url: string) => {
    fetched.push(url);
    const body = files[url];
    if (body === undefined) return { status: 404, body: Buffer.from('not found') };
    return { status: 200, body: typeof body === 'string' ? Buffer.from(body) : body };
  };
  return Object.assign(fetchBytes, { fetched });
}

describe('readSitemaps', () => {
  it('lists the URLs of a urlset, trimmed and normalized, with lastmod and their sitemap', async () => {
    const xml = `<urlset xmlns="${SITEMAP_NAMESPACE}">
      <url><loc>
        https://Example.com/a?utm_source=x#top
      </loc><lastmod> 2024-05-01 </lastmod></url>
      <url><loc>https://example.com/b</loc></url>
    </urlset>`;
    const result = await readSitemaps(['https://example.com/sitemap.xml'], site({ 'https://example.com/sitemap.xml': xml }), limits);
    assert.deepEqual(result.urls, [
      { loc: 'https://example.com/a', lastmod: '2024-05-01', sitemap: 'https://example.com/sitemap.xml' },
      { loc: 'https://example.com/b', sitemap: 'https://example.com/sitemap.xml' },
    ]);
    assert.deepEqual(result.files, [
      { url: 'https://example.com/sitemap.xml', status: 200, kind: 'urlset', urlCount: 2, invalidLocs: 0, namespace: SITEMAP_NAMESPACE },
    ]);
    assert.equal(result.urlsCapped, false);
    assert.equal(result.filesCapped, false);
  });

  it('reads a single <url> the same as many', async () => {
    const result = await readSitemaps(
      ['https://example.com/s.xml'],
      site({ 'https://example.com/s.xml': urlset('https://example.com/only') }),
      limits,
    );
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/only'],
    );
  });

  it('follows a sitemap index into its children, breadth first', async () => {
    const fetchBytes = site({
      'https://example.com/index.xml': sitemapIndex('https://example.com/posts.xml', 'https://example.com/pages.xml'),
      'https://example.com/posts.xml': urlset('https://example.com/p1', 'https://example.com/p2'),
      'https://example.com/pages.xml': urlset('https://example.com/about'),
    });
    const result = await readSitemaps(['https://example.com/index.xml'], fetchBytes, limits);
    assert.deepEqual(fetchBytes.fetched, [
      'https://example.com/index.xml',
      'https://example.com/posts.xml',
      'https://example.com/pages.xml',
    ]);
    assert.deepEqual(
      result.files.map((file) => [file.kind, file.urlCount]),
      [
        ['index', 2],
        ['urlset', 2],
        ['urlset', 1],
      ],
    );
    assert.deepEqual(
      result.urls.map((url) => [url.loc, url.sitemap]),
      [
        ['https://example.com/p1', 'https://example.com/posts.xml'],
        ['https://example.com/p2', 'https://example.com/posts.xml'],
        ['https://example.com/about', 'https://example.com/pages.xml'],
      ],
    );
  });

  it('never fetches the same file twice, however it is spelled', async () => {
    const fetchBytes = site({
      'https://example.com/index.xml': sitemapIndex(
        'https://example.com/index.xml',
        'https://EXAMPLE.com:443/a.xml',
        'https://example.com/a.xml#x',
      ),
      'https://example.com/a.xml': sitemapIndex('https://example.com/index.xml'),
    });
    const result = await readSitemaps(['https://example.com/index.xml', 'https://example.com/index.xml'], fetchBytes, limits);
    assert.deepEqual(fetchBytes.fetched, ['https://example.com/index.xml', 'https://example.com/a.xml']);
    assert.equal(result.files.length, 2);
  });

  it('stops fetching at maxFiles and says so', async () => {
    const children = Array.from({ length: 10 }, (_, i) => `https://example.com/s${i}.xml`);
    const files: Record<string, string> = { 'https://example.com/index.xml': sitemapIndex(...children) };
    for (const [i, child] of children.entries()) files[child] = urlset(`https://example.com/page${i}`);
    const fetchBytes = site(files);
    const result = await readSitemaps(['https://example.com/index.xml'], fetchBytes, { ...limits, maxFiles: 4 });
    assert.equal(fetchBytes.fetched.length, 4);
    assert.equal(result.files.length, 4);
    assert.equal(result.urls.length, 3);
    assert.equal(result.filesCapped, true);
  });

  it('keeps at most maxUrls URLs and then fetches no further file', async () => {
    const fetchBytes = site({
      'https://example.com/a.xml': urlset('https://example.com/1', 'https://example.com/2', 'https://example.com/3'),
      'https://example.com/b.xml': urlset('https://example.com/4'),
    });
    const result = await readSitemaps(['https://example.com/a.xml', 'https://example.com/b.xml'], fetchBytes, { ...limits, maxUrls: 2 });
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/1', 'https://example.com/2'],
    );
    assert.equal(result.files[0]?.urlCount, 3);
    assert.deepEqual(fetchBytes.fetched, ['https://example.com/a.xml']);
    assert.equal(result.urlsCapped, true);
  });

  it('lists a URL once when several sitemaps carry it', async () => {
    const fetchBytes = site({
      'https://example.com/a.xml': urlset('https://example.com/x', 'https://example.com/x?utm_medium=y'),
      'https://example.com/b.xml': urlset('https://example.com/x', 'https://example.com/y'),
    });
    const result = await readSitemaps(['https://example.com/a.xml', 'https://example.com/b.xml'], fetchBytes, limits);
    assert.deepEqual(
      result.urls.map((url) => [url.loc, url.sitemap]),
      [
        ['https://example.com/x', 'https://example.com/a.xml'],
        ['https://example.com/y', 'https://example.com/b.xml'],
      ],
    );
  });

  it('decompresses gzip found by its magic bytes, whatever the name', async () => {
    const fetchBytes = site({
      'https://example.com/sitemap.xml': gzipSync(sitemapIndex('https://example.com/posts.xml.gz')),
      'https://example.com/posts.xml.gz': gzipSync(urlset('https://example.com/p1')),
    });
    const result = await readSitemaps(['https://example.com/sitemap.xml'], fetchBytes, limits);
    assert.deepEqual(
      result.files.map((file) => file.kind),
      ['index', 'urlset'],
    );
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/p1'],
    );
  });

  it('undoes a gzip layer added by Content-Encoding on top of a .gz file', async () => {
    const fetchBytes = site({ 'https://example.com/s.xml.gz': gzipSync(gzipSync(urlset('https://example.com/p1'))) });
    const result = await readSitemaps(['https://example.com/s.xml.gz'], fetchBytes, limits);
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/p1'],
    );
  });

  it('stops decompressing a gzip bomb at maxBytesPerFile', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    assert.ok(bomb.length < 64 * 1024);
    const result = await readSitemaps(['https://example.com/bomb.xml.gz'], site({ 'https://example.com/bomb.xml.gz': bomb }), limits);
    assert.equal(result.files[0]?.kind, 'invalid');
    assert.equal(result.files[0]?.error, `Larger than ${limits.maxBytesPerFile} bytes once decompressed.`);
  });

  it('refuses a file larger than maxBytesPerFile as received', async () => {
    const big = urlset('https://example.com/a').padEnd(2000, ' ');
    const result = await readSitemaps(['https://example.com/s.xml'], site({ 'https://example.com/s.xml': big }), {
      ...limits,
      maxBytesPerFile: 1000,
    });
    assert.equal(result.files[0]?.error, 'Larger than 1000 bytes.');
  });

  it('calls broken gzip data invalid', async () => {
    const broken = gzipSync(urlset('https://example.com/a')).subarray(0, 20);
    const result = await readSitemaps(['https://example.com/s.xml.gz'], site({ 'https://example.com/s.xml.gz': broken }), limits);
    assert.equal(result.files[0]?.kind, 'invalid');
    assert.match(result.files[0]?.error ?? '', /^Bad gzip data/);
  });

  it('does not expand entities declared in a DOCTYPE', async () => {
    const xml = `<?xml version="1.0"?>
      <!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
      <urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>https://example.com/&b;</loc></url></urlset>`;
    const result = await readSitemaps(['https://example.com/s.xml'], site({ 'https://example.com/s.xml': xml }), limits);
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/&b;'],
    );
  });

  it('decodes predefined entities and character references, and leaves CDATA as written', async () => {
    const xml = urlset('https://example.com/s?a=1&amp;b=2&amp;c=&#x41;&#66;', '<![CDATA[https://example.com/t?x=1&y=2]]>');
    const result = await readSitemaps(['https://example.com/s.xml'], site({ 'https://example.com/s.xml': xml }), limits);
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/s?a=1&b=2&c=AB', 'https://example.com/t?x=1&y=2'],
    );
  });

  it('counts entries whose loc is missing, relative or not http(s)', async () => {
    const xml =
      `<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>/relative</loc></url><url><lastmod>2024</lastmod></url>` +
      `<url><loc>mailto:a@example.com</loc></url><url><loc>https://example.com/ok</loc></url></urlset>`;
    const result = await readSitemaps(['https://example.com/s.xml'], site({ 'https://example.com/s.xml': xml }), limits);
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/ok'],
    );
    assert.equal(result.files[0]?.urlCount, 1);
    assert.equal(result.files[0]?.invalidLocs, 3);
  });

  it('reads prefixed elements and reports the namespace, or its absence', async () => {
    const prefixed = `<sm:urlset xmlns:sm="${SITEMAP_NAMESPACE}"><sm:url><sm:loc>https://example.com/a</sm:loc></sm:url></sm:urlset>`;
    const bare = '<urlset><url><loc>https://example.com/b</loc></url></urlset>';
    const wrong = '<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://example.com/c</loc></url></urlset>';
    const fetchBytes = site({
      'https://example.com/1.xml': prefixed,
      'https://example.com/2.xml': bare,
      'https://example.com/3.xml': wrong,
    });
    const result = await readSitemaps(
      ['https://example.com/1.xml', 'https://example.com/2.xml', 'https://example.com/3.xml'],
      fetchBytes,
      limits,
    );
    assert.deepEqual(
      result.files.map((file) => file.namespace),
      [SITEMAP_NAMESPACE, undefined, 'http://www.google.com/schemas/sitemap/0.84'],
    );
    assert.equal(result.urls.length, 3);
  });

  it('ignores extension elements such as images and alternates', async () => {
    const xml = `<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
      <url><loc>https://example.com/a</loc><image:image><image:loc>https://cdn.example.com/i.jpg</image:loc></image:image>
      <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/a"/></url></urlset>`;
    const result = await readSitemaps(['https://example.com/s.xml'], site({ 'https://example.com/s.xml': xml }), limits);
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/a'],
    );
  });

  it('calls malformed XML invalid', async () => {
    const result = await readSitemaps(
      ['https://example.com/s.xml'],
      site({ 'https://example.com/s.xml': '<urlset><url></urlset>' }),
      limits,
    );
    assert.equal(result.files[0]?.kind, 'invalid');
    assert.match(result.files[0]?.error ?? '', /^XML does not parse/);
  });

  it('calls a document of another kind invalid', async () => {
    const fetchBytes = site({ 'https://example.com/s.xml': '<html><body><p>Welcome</p></body></html>' });
    const result = await readSitemaps(['https://example.com/s.xml'], fetchBytes, limits);
    assert.equal(result.files[0]?.error, 'Not a sitemap: root element <html>.');
  });

  it('calls a failed fetch invalid with its status', async () => {
    const fetchBytes: FetchBytes = async (url) => {
      if (url.endsWith('/gone.xml')) return { status: 410, body: Buffer.alloc(0) };
      if (url.endsWith('/silent.xml')) return null;
      throw new Error('connect ECONNREFUSED');
    };
    const start = ['https://example.com/gone.xml', 'https://example.com/silent.xml', 'https://example.com/down.xml'];
    const result = await readSitemaps(start, fetchBytes, limits);
    assert.deepEqual(
      result.files.map((file) => [file.status, file.kind, file.error]),
      [
        [410, 'invalid', 'HTTP 410.'],
        [0, 'invalid', 'No response.'],
        [0, 'invalid', 'Fetch failed: connect ECONNREFUSED'],
      ],
    );
  });

  it('records a start URL that is not http(s) without fetching it', async () => {
    const fetchBytes = site({});
    const result = await readSitemaps(['ftp://example.com/s.xml'], fetchBytes, limits);
    assert.deepEqual(fetchBytes.fetched, []);
    assert.deepEqual(result.files, [
      { url: 'ftp://example.com/s.xml', status: 0, kind: 'invalid', error: 'Not an absolute http(s) URL.', urlCount: 0, invalidLocs: 0 },
    ]);
  });

  it('reads a text sitemap, one URL per line', async () => {
    const text = '\uFEFFhttps://example.com/a\r\n\r\n  https://example.com/b  \nnot a url\nhttps://example.com/c';
    const result = await readSitemaps(['https://example.com/s.txt'], site({ 'https://example.com/s.txt': text }), limits);
    assert.deepEqual(
      result.urls.map((url) => url.loc),
      ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'],
    );
    assert.deepEqual(result.files[0], { url: 'https://example.com/s.txt', status: 200, kind: 'text', urlCount: 3, invalidLocs: 1 });
  });

  it('calls a body that is neither XML nor a URL list invalid', async () => {
    const fetchBytes: FetchBytes = async () => ({ status: 200, body: Buffer.from('{"ok":true}'), contentType: 'application/json' });
    const result = await readSitemaps(['https://example.com/s'], fetchBytes, limits);
    assert.equal(result.files[0]?.error, 'Neither XML nor a list of URLs (served as application/json).');
  });

  it('works with a real HTTP server and a fetch built on global fetch', async () => {
    let base = '';
    const bodies: Record<string, { type: string; body: Buffer }> = {
      '/sitemap_index.xml': { type: 'application/xml', body: Buffer.from('') },
      '/posts.xml.gz': { type: 'application/gzip', body: Buffer.from('') },
      '/pages.txt': { type: 'text/plain', body: Buffer.from('') },
    };
    const server = createServer((request, response) => {
      const file = bodies[request.url ?? ''];
      if (file === undefined) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': file.type }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      bodies['/sitemap_index.xml']!.body = Buffer.from(sitemapIndex(`${base}/posts.xml.gz`, `${base}/pages.txt`, `${base}/missing.xml`));
      bodies['/posts.xml.gz']!.body = gzipSync(urlset(`${base}/posts/1`, `${base}/posts/2`));
      bodies['/pages.txt']!.body = Buffer.from(`${base}/about\n${base}/contact\n`);
      const fetchBytes: FetchBytes = async (url) => {
        const response = await fetch(url);
        const contentType = response.headers.get('content-type') ?? undefined;
        return { status: response.status, body: Buffer.from(await response.arrayBuffer()), ...(contentType ? { contentType } : {}) };
      };
      const result = await readSitemaps([`${base}/sitemap_index.xml`], fetchBytes, limits);
      assert.deepEqual(
        result.files.map((file) => [file.url.slice(base.length), file.status, file.kind]),
        [
          ['/sitemap_index.xml', 200, 'index'],
          ['/posts.xml.gz', 200, 'urlset'],
          ['/pages.txt', 200, 'text'],
          ['/missing.xml', 404, 'invalid'],
        ],
      );
      assert.deepEqual(
        result.urls.map((url) => url.loc.slice(base.length)),
        ['/posts/1', '/posts/2', '/about', '/contact'],
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
