import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BlockedAddressError, isPublicAddress } from './address-guard.ts';
import { GuardedFetcher } from './guarded-fetch.ts';

describe('address guard: which addresses are public', () => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'IPv4 loopback'],
    ['127.255.1.2', 'the whole 127/8'],
    ['10.1.2.3', 'RFC 1918 10/8'],
    ['172.16.0.1', 'RFC 1918 172.16/12'],
    ['192.168.1.1', 'RFC 1918 192.168/16'],
    ['169.254.169.254', 'link-local: cloud metadata'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00:ec2::254', 'IPv6 unique local (AWS metadata over IPv6)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['not an address', 'garbage'],
  ];
  for (const [address, why] of refused) {
    it(`refuses ${address} (${why})`, () => assert.equal(isPublicAddress(address), false));
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:8.8.8.8']) {
    it(`allows ${address}`, () => assert.equal(isPublicAddress(address), true));
  }
});

describe('guarded fetcher', () => {
  let server: Server;
  let port: number;
  const fetcher = new GuardedFetcher({ allowPrivate: false });
  before(async () => {
    server = createServer((request, response) => {
      if (request.url === '/to-metadata') response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else response.end('private content');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    await fetcher.close();
  });

  const blocked = (error: unknown) =>
    error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError;

  it('refuses a literal loopback address before connecting', async () => {
    await assert.rejects(fetcher.fetch(`http://127.0.0.1:${port}/`, { maxBytes: 1000, timeoutMs: 2000 }), blocked);
  });

  it('refuses a name that resolves to loopback, at connect time (DNS is checked, not the name)', async () => {
    await assert.rejects(fetcher.fetch(`http://localhost:${port}/`, { maxBytes: 1000, timeoutMs: 2000 }), blocked);
  });

  it('refuses a literal IPv6 loopback', async () => {
    await assert.rejects(fetcher.fetch(`http://[::1]:${port}/`, { maxBytes: 1000, timeoutMs: 2000 }), blocked);
  });

  it('refuses a redirect to the metadata address, checked again on the hop', async () => {
    const open = new GuardedFetcher({ allowPrivate: true });
    const guarded = new GuardedFetcher({ allowPrivate: false });
    try {
      // With private targets allowed the first hop is reached, so the refusal below is the hop's.
      const first = await open.open(new URL(`http://127.0.0.1:${port}/to-metadata`), { method: 'GET', timeoutMs: 2000 });
      await first.body.dump();
      assert.equal(first.statusCode, 302);
      await assert.rejects(guarded.fetch(String(first.headers.location), { maxBytes: 1000, timeoutMs: 2000 }), blocked);
    } finally {
      await open.close();
      await guarded.close();
    }
  });

  it('reaches a loopback server only when private targets are allowed', async () => {
    const open = new GuardedFetcher({ allowPrivate: true });
    try {
      const fetched = await open.fetch(`http://localhost:${port}/`, { maxBytes: 1000, timeoutMs: 2000 });
      assert.equal(fetched.body.toString(), 'private content');
    } finally {
      await open.close();
    }
  });
});
