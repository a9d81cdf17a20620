import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertPublicHost, BlockedAddressError, isPublicAddress } from './address-guard.ts';
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

/**
 * Every IPv6 form that carries an IPv4 address, in every spelling, for each kind of address
 * the guard refuses. `${hex}` is the IPv4 address as two hex groups, `${dotted}` as a
 * dotted quad; Teredo carries its client inverted (RFC 4380 §4).
 */
describe('address guard: IPv6 forms that embed an IPv4 address are judged by it', () => {
  const targets: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.5.4', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
  ];
  const groups = (ipv4: string) => {
    const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)] as const;
  };
  const pad = (group: string) => group.padStart(4, '0');
  const spellings = (dotted: string): string[] => {
    const [high, low] = groups(dotted);
    const [invHigh, invLow] = groups(
      dotted
        .split('.')
        .map((octet) => 255 - Number(octet))
        .join('.'),
    );
    return [
      // IPv4-mapped (RFC 4291 §2.5.5.2)
      `::ffff:${dotted}`,
      `::ffff:${high}:${low}`,
      `::FFFF:${high.toUpperCase()}:${low.toUpperCase()}`,
      `0:0:0:0:0:ffff:${dotted}`,
      `0000:0000:0000:0000:0000:ffff:${pad(high)}:${pad(low)}`,
      `::ffff:${dotted}%eth0`,
      // IPv4-compatible, deprecated but still parsed (RFC 4291 §2.5.5.1)
      `::${high}:${low}`,
      `::${dotted}`,
      `0::${dotted}`,
      `0:0:0:0:0:0:${high}:${low}`,
      `0000:0000:0000:0000:0000:0000:${pad(high)}:${pad(low)}`,
      `::${high.toUpperCase()}:${low.toUpperCase()}%1`,
      // IPv4-translated (RFC 6145)
      `::ffff:0:${dotted}`,
      `::ffff:0:${high}:${low}`,
      // NAT64, well-known prefix (RFC 6052) and local-use prefix (RFC 8215)
      `64:ff9b::${dotted}`,
      `64:ff9b::${high}:${low}`,
      `64:FF9B::${high.toUpperCase()}:${low.toUpperCase()}`,
      `0064:ff9b:0000:0000:0000:0000:${pad(high)}:${pad(low)}`,
      `64:ff9b:1::${high}:${low}`,
      `64:ff9b:1:abcd::${dotted}`,
      // 6to4 (RFC 3056)
      `2002:${high}:${low}::`,
      `2002:${high}:${low}::1`,
      `2002:${pad(high)}:${pad(low)}:1234:5678:9abc:def0:1`,
      `2002:${high.toUpperCase()}:${low.toUpperCase()}:ffff::${dotted}`,
      // Teredo (RFC 4380): a public server (65.54.227.120), the client inverted
      `2001:0:4136:e378:8000:63bf:${invHigh}:${invLow}`,
      `2001:0000:4136:E378:8000:63BF:${pad(invHigh).toUpperCase()}:${pad(invLow).toUpperCase()}`,
      // Teredo with the target as its server and a public client (8.8.8.8)
      `2001:0:${high}:${low}:8000:63bf:f7f7:f7f7`,
    ];
  };
  for (const [dotted, kind] of targets) {
    for (const address of spellings(dotted)) {
      it(`refuses ${address} (${kind})`, () => assert.equal(isPublicAddress(address), false));
    }
  }
  for (const address of ['[::7f00:1]', '[::ffff:169.254.169.254]', '[64:ff9b::a9fe:a9fe]', '[2002:a9fe:a9fe::]']) {
    it(`refuses the literal host ${address} before any lookup`, () => assert.throws(() => assertPublicHost(address), BlockedAddressError));
  }
  for (const address of ['::1:0:0:1', '1::', '3fff::1']) {
    it(`refuses ${address}, outside the global unicast space or reserved`, () => assert.equal(isPublicAddress(address), false));
  }
  for (const address of [
    '::ffff:8.8.8.8',
    '::808:808',
    '::ffff:0:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1:abcd::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ]) {
    it(`allows ${address}, which carries the public 8.8.8.8`, () => assert.equal(isPublicAddress(address), true));
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

  it('refuses loopback spelled as IPv4-compatible IPv6 in a URL', async () => {
    for (const host of ['[::7f00:1]', '[::127.0.0.1]', '[0:0:0:0:0:0:7F00:0001]']) {
      await assert.rejects(fetcher.fetch(`http://${host}:${port}/`, { maxBytes: 1000, timeoutMs: 2000 }), blocked, host);
    }
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
