import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Resolve } from '../outbound/address-guard.ts';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { testCertificate } from '../testing/test-certificate.ts';
import { checkLink } from './link-checker.ts';

const MISSING_HOST = 'nowhere.test';

/** Test names: MISSING_HOST does not resolve, every other name is 127.0.0.1. No lookup leaves the machine. */
const resolver = ((hostname, _options, callback) => {
  resolver.calls.push(hostname);
  if (hostname !== MISSING_HOST) return queueMicrotask(() => callback(null, [{ address: '127.0.0.1', family: 4 } satisfies LookupAddress]));
  const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  queueMicrotask(() => callback(error, []));
}) as Resolve & { calls: string[] };
resolver.calls = [];

async function listen<T extends NetServer>(server: T): Promise<{ server: T; port: number; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const { server, port } = await listen(createNetServer());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('link checker', () => {
  let site: Awaited<ReturnType<typeof listen<Server>>>;
  let origin: string;
  let deadPort: number;
  const methods: string[] = [];
  const fetcher = new GuardedFetcher({ allowPrivate: true, lookup: resolver });
  const options = { timeoutMs: 2000, maxRedirects: 3, userAgent: 'LoupeBot/test' };
  before(async () => {
    deadPort = await closedPort();
    site = await listen(
      createServer((request, response) => {
        methods.push(`${request.method} ${request.url}`);
        if (request.url === '/no-head' && request.method === 'HEAD') return response.writeHead(405).end();
        if (request.url === '/drops-head' && request.method === 'HEAD') return request.socket.resetAndDestroy();
        if (request.url === '/moved') return response.writeHead(301, { location: '/ok' }).end();
        if (request.url === '/loop') return response.writeHead(302, { location: '/loop' }).end();
        if (request.url?.startsWith('/maze/'))
          return response.writeHead(302, { location: `/maze/${Number(request.url.slice(6)) + 1}` }).end();
        if (request.url === '/bad-location') return response.writeHead(302, { location: 'http://[::1' }).end();
        if (request.url === '/to-dead-host') return response.writeHead(302, { location: `http://127.0.0.1:${deadPort}/` }).end();
        if (request.url === '/missing') return response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
      }),
    );
    origin = `http://127.0.0.1:${site.port}`;
  });
  after(async () => {
    site.server.close();
    await fetcher.close();
  });

  it('answers with HEAD alone when the server supports it', async () => {
    methods.length = 0;
    const check = await checkLink(fetcher, `${origin}/ok`, options);
    assert.deepEqual([check.status, check.error, check.hostFailure], [200, null, false]);
    assert.deepEqual(methods, ['HEAD /ok']);
  });

  it('falls back to GET when HEAD is refused', async () => {
    methods.length = 0;
    assert.equal((await checkLink(fetcher, `${origin}/no-head`, options)).status, 200);
    assert.deepEqual(methods, ['HEAD /no-head', 'GET /no-head']);
  });

  it('falls back to GET when the server drops the connection on HEAD', async () => {
    methods.length = 0;
    assert.equal((await checkLink(fetcher, `${origin}/drops-head`, options)).status, 200);
    assert.deepEqual(methods, ['HEAD /drops-head', 'GET /drops-head']);
  });

  it('follows redirects and reports where they ended', async () => {
    const check = await checkLink(fetcher, `${origin}/moved`, options);
    assert.deepEqual([check.status, check.finalUrl, check.redirects], [200, `${origin}/ok`, 1]);
  });

  it('stops a redirect back to a URL of the chain as a redirect loop', async () => {
    methods.length = 0;
    const check = await checkLink(fetcher, `${origin}/loop`, options);
    assert.deepEqual([check.status, check.error], [302, 'loop']);
    assert.deepEqual(methods, ['HEAD /loop']);
  });

  it('stops an endless chain of new URLs after maxRedirects', async () => {
    const check = await checkLink(fetcher, `${origin}/maze/0`, options);
    assert.deepEqual([check.status, check.error, check.redirects, check.finalUrl], [302, 'too-many-redirects', 3, `${origin}/maze/3`]);
  });

  it('reports a Location that is no URL as an invalid redirect', async () => {
    const check = await checkLink(fetcher, `${origin}/bad-location`, options);
    assert.deepEqual([check.status, check.error], [302, 'invalid-redirect']);
  });

  it('reports a broken link with its status', async () => {
    assert.equal((await checkLink(fetcher, `${origin}/missing`, options)).status, 404);
  });

  it('refuses a private target when private addresses are not allowed, without asking again with GET', async () => {
    const guarded = new GuardedFetcher({ allowPrivate: false });
    try {
      methods.length = 0;
      const check = await checkLink(guarded, `${origin}/ok`, options);
      assert.deepEqual([check.error, check.hostFailure], ['blocked-address', false]);
      assert.deepEqual(methods, []);
    } finally {
      await guarded.close();
    }
  });

  it("reports a name that does not resolve as 'dns', a failure of the whole host, asked once", async () => {
    resolver.calls.length = 0;
    const check = await checkLink(fetcher, `http://${MISSING_HOST}/page`, options);
    assert.deepEqual([check.status, check.error, check.hostFailure], [null, 'dns', true]);
    assert.deepEqual(resolver.calls, [MISSING_HOST], 'no GET after HEAD');
  });

  it("reports a refused connection as 'refused', a failure of the whole host, asked once", async () => {
    resolver.calls.length = 0;
    const check = await checkLink(fetcher, `http://dead.test:${deadPort}/page`, options);
    assert.deepEqual([check.status, check.error, check.hostFailure], [null, 'refused', true]);
    assert.deepEqual(resolver.calls, ['dead.test'], 'no GET after HEAD');
  });

  it('does not call the link’s host failed when only a redirect target is', async () => {
    const check = await checkLink(fetcher, `${origin}/to-dead-host`, options);
    assert.deepEqual([check.error, check.hostFailure, check.redirects], ['refused', false, 1]);
  });

  it("reports a server that accepts and never answers as 'timeout', asked once", async () => {
    const silent = await listen(createNetServer(() => {}));
    try {
      const check = await checkLink(fetcher, `http://127.0.0.1:${silent.port}/`, { ...options, timeoutMs: 300 });
      assert.deepEqual([check.status, check.error, check.hostFailure], [null, 'timeout', false]);
      assert.equal(silent.connections(), 1, 'no GET after HEAD');
    } finally {
      silent.server.close();
    }
  });

  it("reports an untrusted certificate as 'tls', asked once", async () => {
    const secure = await listen(
      createHttpsServer({ key: testCertificate.key, cert: testCertificate.cert }, (_request, response) => response.end('ok')),
    );
    try {
      const check = await checkLink(fetcher, `https://localhost:${secure.port}/`, options);
      assert.deepEqual([check.status, check.error, check.hostFailure], [null, 'tls', false]);
      assert.equal(secure.connections(), 1, 'no GET after HEAD');
    } finally {
      secure.server.close();
    }
  });

  it("reports a connection reset before any answer as 'reset', after trying GET too", async () => {
    const resetting = await listen(createNetServer((socket) => socket.resetAndDestroy()));
    try {
      const check = await checkLink(fetcher, `http://127.0.0.1:${resetting.port}/`, options);
      assert.deepEqual([check.status, check.error, check.hostFailure], [null, 'reset', false]);
      assert.equal(resetting.connections(), 2);
    } finally {
      resetting.server.close();
    }
  });

  it("answers 'aborted' when the caller stops the check: no result, nothing asked", async () => {
    methods.length = 0;
    const check = await checkLink(fetcher, `${origin}/ok`, { ...options, signal: AbortSignal.abort() });
    assert.deepEqual([check.status, check.error], [null, 'aborted']);
    assert.deepEqual(methods, []);
  });
});
