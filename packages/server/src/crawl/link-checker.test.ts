import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { checkLink } from './link-checker.ts';

describe('link checker', () => {
  let server: Server;
  let origin: string;
  const methods: string[] = [];
  const fetcher = new GuardedFetcher({ allowPrivate: true });
  const options = { timeoutMs: 2000, maxRedirects: 3, userAgent: 'LoupeBot/test' };
  before(async () => {
    server = createServer((request, response) => {
      methods.push(`${request.method} ${request.url}`);
      if (request.url === '/no-head' && request.method === 'HEAD') return response.writeHead(405).end();
      if (request.url === '/moved') return response.writeHead(301, { location: '/ok' }).end();
      if (request.url === '/loop') return response.writeHead(302, { location: '/loop' }).end();
      if (request.url === '/missing') return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await fetcher.close();
  });

  it('answers with HEAD alone when the server supports it', async () => {
    methods.length = 0;
    assert.equal((await checkLink(fetcher, `${origin}/ok`, options)).status, 200);
    assert.deepEqual(methods, ['HEAD /ok']);
  });

  it('falls back to GET when HEAD is refused', async () => {
    methods.length = 0;
    assert.equal((await checkLink(fetcher, `${origin}/no-head`, options)).status, 200);
    assert.deepEqual(methods, ['HEAD /no-head', 'GET /no-head']);
  });

  it('follows redirects and reports where they ended', async () => {
    const check = await checkLink(fetcher, `${origin}/moved`, options);
    assert.deepEqual([check.status, check.finalUrl, check.redirects], [200, `${origin}/ok`, 1]);
  });

  it('stops an endless redirect', async () => {
    assert.equal((await checkLink(fetcher, `${origin}/loop`, options)).error, 'too-many-redirects');
  });

  it('reports a broken link with its status', async () => {
    assert.equal((await checkLink(fetcher, `${origin}/missing`, options)).status, 404);
  });

  it('refuses a private target when private addresses are not allowed', async () => {
    const guarded = new GuardedFetcher({ allowPrivate: false });
    try {
      assert.equal((await checkLink(guarded, `${origin}/ok`, options)).error, 'blocked-address');
    } finally {
      await guarded.close();
    }
  });
});
