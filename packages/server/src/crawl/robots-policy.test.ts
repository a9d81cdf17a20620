import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { type FetchText, loadRobots, ROBOTS_MAX_BYTES } from './robots-policy.ts';

const origin = 'https://example.com';

/** A fetcher that answers robots.txt from memory and records what was asked. */
function serve(status: number, body = ''): FetchText & { asked: string[] } {
  const asked: string[] = [];
  const fetchText = async (url: string) => {
    asked.push(url);
    return { status, body };
  };
  return Object.assign(fetchText, { asked });
}

describe('loadRobots', () => {
  it('asks for /robots.txt at the root of the origin', async () => {
    const fetchText = serve(404);
    const policy = await loadRobots('https://Example.com:443/some/page?x=1', fetchText, 'LoupeBot');
    assert.deepEqual(fetchText.asked, ['https://example.com/robots.txt']);
    assert.equal(policy.url, 'https://example.com/robots.txt');
  });

  it('applies the rules of a 200 answer', async () => {
    const policy = await loadRobots(origin, serve(200, 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\n'), 'LoupeBot');
    assert.equal(policy.status, 'ok');
    assert.equal(policy.httpStatus, 200);
    assert.equal(policy.isAllowed('https://example.com/public'), true);
    assert.equal(policy.isAllowed('https://example.com/private/x'), false);
    assert.equal(policy.isAllowed('https://example.com/private/ok'), true);
    assert.equal(policy.blocksAll, false);
  });

  it('matches path and query with Google wildcards', async () => {
    const policy = await loadRobots(origin, serve(200, 'User-agent: *\nDisallow: /*?sort=\nDisallow: /*.pdf$\n'), 'LoupeBot');
    assert.equal(policy.isAllowed('https://example.com/list?sort=asc'), false);
    assert.equal(policy.isAllowed('https://example.com/list?page=2'), true);
    assert.equal(policy.isAllowed('https://example.com/a.pdf'), false);
    assert.equal(policy.isAllowed('https://example.com/a.pdf?v=1'), true);
  });

  it('resolves a bare path against the origin', async () => {
    const policy = await loadRobots(origin, serve(200, 'User-agent: *\nDisallow: /admin'), 'LoupeBot');
    assert.equal(policy.isAllowed('/admin/users'), false);
    assert.equal(policy.isAllowed('/about'), true);
  });

  it('prefers the group naming our token over *, case-insensitively', async () => {
    const body = 'User-agent: *\nDisallow: /\n\nUser-agent: loupebot\nDisallow: /no-loupe/\nCrawl-delay: 2\n';
    const policy = await loadRobots(origin, serve(200, body), 'LoupeBot');
    assert.equal(policy.isAllowed('https://example.com/page'), true);
    assert.equal(policy.isAllowed('https://example.com/no-loupe/x'), false);
    assert.equal(policy.crawlDelayMs(), 2000);
    assert.equal(policy.blocksAll, false);
  });

  it('uses only the product token of a full user-agent string', async () => {
    const body = 'User-agent: LoupeBot/2.0\nDisallow: /x\n';
    const policy = await loadRobots(origin, serve(200, body), 'LoupeBot/1.0 (+https://loupe.dev/bot)');
    assert.equal(policy.isAllowed('https://example.com/x'), false);
  });

  it('falls back to the * group when no group names us', async () => {
    const policy = await loadRobots(
      origin,
      serve(200, 'User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\nCrawl-delay: 0.5'),
      'LoupeBot',
    );
    assert.equal(policy.isAllowed('https://example.com/'), true);
    assert.equal(policy.isAllowed('https://example.com/tmp/a'), false);
    assert.equal(policy.crawlDelayMs(), 500);
  });

  it('merges groups that name the same agent', async () => {
    const body = 'User-agent: LoupeBot\nDisallow: /a\n\nUser-agent: Other\nDisallow: /\n\nUser-agent: LoupeBot\nDisallow: /b\n';
    const policy = await loadRobots(origin, serve(200, body), 'LoupeBot');
    assert.equal(policy.isAllowed('/a'), false);
    assert.equal(policy.isAllowed('/b'), false);
    assert.equal(policy.isAllowed('/c'), true);
  });

  it('has no crawl delay when none is given, or it is not a number', async () => {
    assert.equal((await loadRobots(origin, serve(200, 'User-agent: *\nDisallow:'), 'LoupeBot')).crawlDelayMs(), undefined);
    assert.equal((await loadRobots(origin, serve(200, 'User-agent: *\nCrawl-delay: soon'), 'LoupeBot')).crawlDelayMs(), undefined);
    assert.equal((await loadRobots(origin, serve(200, 'User-agent: *\nCrawl-delay: -3'), 'LoupeBot')).crawlDelayMs(), undefined);
  });

  it('lists Sitemap lines normalized, resolved and without duplicates', async () => {
    const body =
      'Sitemap: https://Example.com/sitemap.xml\nUser-agent: *\nDisallow:\nSitemap: /news.xml#x\n' +
      'Sitemap: https://example.com:443/sitemap.xml\nSitemap: ftp://example.com/s.xml\n';
    const policy = await loadRobots(origin, serve(200, body), 'LoupeBot');
    assert.deepEqual(policy.sitemaps(), ['https://example.com/sitemap.xml', 'https://example.com/news.xml']);
  });

  it('says blocksAll for Disallow: / and not when an Allow re-opens the root', async () => {
    assert.equal((await loadRobots(origin, serve(200, 'User-agent: *\nDisallow: /'), 'LoupeBot')).blocksAll, true);
    assert.equal((await loadRobots(origin, serve(200, 'User-agent: *\nDisallow: /\nAllow: /$'), 'LoupeBot')).blocksAll, false);
    assert.equal((await loadRobots(origin, serve(200, 'User-agent: *\nDisallow: /$'), 'LoupeBot')).blocksAll, false);
  });

  it('allows everything when robots.txt answers 4xx', async () => {
    for (const status of [401, 403, 404, 410]) {
      const policy = await loadRobots(origin, serve(status, 'User-agent: *\nDisallow: /'), 'LoupeBot');
      assert.equal(policy.status, 'missing', String(status));
      assert.equal(policy.httpStatus, status);
      assert.equal(policy.isAllowed('https://example.com/anything'), true);
      assert.equal(policy.blocksAll, false);
      assert.deepEqual(policy.sitemaps(), []);
    }
  });

  it('allows everything when the fetcher stops at a redirect', async () => {
    const policy = await loadRobots(origin, serve(301), 'LoupeBot');
    assert.equal(policy.status, 'missing');
    assert.equal(policy.isAllowed('/x'), true);
  });

  it('disallows everything on 5xx and 429', async () => {
    for (const status of [500, 503, 429]) {
      const policy = await loadRobots(origin, serve(status, 'User-agent: *\nAllow: /'), 'LoupeBot');
      assert.equal(policy.status, 'error', String(status));
      assert.equal(policy.isAllowed('https://example.com/'), false);
      assert.equal(policy.blocksAll, true);
    }
  });

  it('disallows everything when there is no answer or the fetcher throws', async () => {
    const silent = await loadRobots(origin, async () => null, 'LoupeBot');
    const failing = await loadRobots(
      origin,
      async () => {
        throw new Error('ECONNRESET');
      },
      'LoupeBot',
    );
    for (const policy of [silent, failing]) {
      assert.equal(policy.status, 'unreachable');
      assert.equal(policy.httpStatus, null);
      assert.equal(policy.isAllowed('https://example.com/'), false);
      assert.equal(policy.blocksAll, true);
      assert.equal(policy.crawlDelayMs(), undefined);
    }
  });

  it('does not speak for other origins', async () => {
    const policy = await loadRobots(origin, serve(503), 'LoupeBot');
    assert.equal(policy.isAllowed('https://other.com/'), true);
    assert.equal(policy.isAllowed('http://example.com/'), true);
  });

  it('reads only the first 500 KiB, up to the last whole line', async () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(ROBOTS_MAX_BYTES / 1003));
    const body = `User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`;
    const policy = await loadRobots(origin, serve(200, body), 'LoupeBot');
    assert.equal(policy.isAllowed('/early'), false);
    assert.equal(policy.isAllowed('/late'), true);
  });

  it('ignores a byte-order mark before the first line', async () => {
    const policy = await loadRobots(origin, serve(200, '\uFEFFUser-agent: *\nDisallow: /x'), 'LoupeBot');
    assert.equal(policy.isAllowed('/x'), false);
  });

  it('refuses an origin that is not http(s)', async () => {
    await assert.rejects(loadRobots('ftp://example.com', serve(200), 'LoupeBot'), TypeError);
  });

  it('works with a real HTTP server and a fetch built on global fetch', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/robots.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`User-agent: LoupeBot\nDisallow: /drafts/\nCrawl-delay: 1\nSitemap: /sitemap.xml\n`);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const fetchText: FetchText = async (url) => {
        const response = await fetch(url, { headers: { 'user-agent': 'LoupeBot/1.0' } });
        return { status: response.status, body: await response.text() };
      };
      const policy = await loadRobots(base, fetchText, 'LoupeBot');
      assert.equal(policy.status, 'ok');
      assert.equal(policy.isAllowed(`${base}/drafts/1`), false);
      assert.equal(policy.isAllowed(`${base}/posts/1`), true);
      assert.equal(policy.crawlDelayMs(), 1000);
      assert.deepEqual(policy.sitemaps(), [`${base}/sitemap.xml`]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
