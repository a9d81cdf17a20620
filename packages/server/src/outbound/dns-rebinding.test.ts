import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, isIP, type Socket } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { BlockedAddressError, guardedLookup, type Resolve } from './address-guard.ts';
import { GuardedFetcher } from './guarded-fetch.ts';

// DESIGN.md §8: the address is checked "at connect time", so DNS rebinding cannot pass. The
// attack: a name answers a public address when it is checked and 127.0.0.1 when it is
// connected to. These tests resolve names with a scripted stand-in for dns.lookup, so no
// real DNS is asked and the answers change exactly when the test says.

/** Stands for any public address; the tripwire below stops every connection to it. */
const PUBLIC = '93.184.216.34';
const NAME = 'rebind.test';

/** A dns.lookup stand-in answering the scripted lists in turn (the last one repeats), counting calls. */
function scriptedResolver(...answers: string[][]): Resolve & { calls: number } {
  const resolver = ((_hostname, _options, callback) => {
    const answer = answers[Math.min(resolver.calls, answers.length - 1)] as string[];
    resolver.calls += 1;
    const list: LookupAddress[] = answer.map((address) => ({ address, family: isIP(address) }));
    queueMicrotask(() => callback(null, list));
  }) as Resolve & { calls: number };
  resolver.calls = 0;
  return resolver;
}

class StoppedBeforeConnect extends Error {
  readonly address: string;

  constructor(address: string) {
    super(`test tripwire: the socket was about to connect to ${address}`);
    this.address = address;
  }
}

/** True when the error, or its cause, is a BlockedAddressError for `address`. */
const blockedFor = (address: string) => (error: unknown) => {
  const found = error instanceof BlockedAddressError ? error : (error as { cause?: unknown }).cause;
  return found instanceof BlockedAddressError && found.address === address;
};

const stoppedAt = (address: string) => (error: unknown) => {
  const found = error instanceof StoppedBeforeConnect ? error : (error as { cause?: unknown }).cause;
  return found instanceof StoppedBeforeConnect && found.address === address;
};

describe('DNS rebinding: the guard checks the address each connection actually uses', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let requests = 0;
  /** Non-loopback addresses a socket resolved to and was stopped at, before connecting. */
  let stopped: string[] = [];

  // Tripwire: every client socket reports the address(es) its own lookup answered ('lookup'
  // is emitted after resolving, before connecting). A non-loopback one is recorded and the
  // socket destroyed there, so the test never sends a packet off this machine, and we see
  // which address the connection would have used.
  const tripwire = (message: unknown) => {
    const socket = (message as { socket: Socket }).socket;
    socket.on('lookup', (error: Error | null, address?: string) => {
      if (error || !address || address === '127.0.0.1' || address === '::1') return;
      stopped.push(address);
      socket.destroy(new StoppedBeforeConnect(address));
    });
  };

  before(async () => {
    subscribe('net.client.socket', tripwire);
    server = createServer((_request, response) => {
      requests += 1;
      response.end('private content');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    unsubscribe('net.client.socket', tripwire);
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    connections = 0;
    requests = 0;
    stopped = [];
  });

  const limits = { maxBytes: 1000, timeoutMs: 5000 };

  it('resolves once per connection, inside it: public then 127.0.0.1 leads to the public address only', async () => {
    // A check-then-connect guard would see the public answer and then connect to 127.0.0.1.
    const resolver = scriptedResolver([PUBLIC], ['127.0.0.1']);
    const fetcher = new GuardedFetcher({ allowPrivate: false, lookup: resolver });
    try {
      await assert.rejects(fetcher.fetch(`http://${NAME}:${port}/`, limits), stoppedAt(PUBLIC));
      assert.equal(resolver.calls, 1, 'one resolution: the one the socket connects with');
      assert.deepEqual(stopped, [PUBLIC]);
      assert.equal(connections, 0);
      assert.equal(requests, 0);
    } finally {
      await fetcher.close();
    }
  });

  it('refuses the next connection once the name rebinds to 127.0.0.1; the loopback server hears nothing', async () => {
    const resolver = scriptedResolver([PUBLIC], ['127.0.0.1']);
    const fetcher = new GuardedFetcher({ allowPrivate: false, lookup: resolver });
    try {
      await assert.rejects(fetcher.fetch(`http://${NAME}:${port}/first`, limits), stoppedAt(PUBLIC));
      await assert.rejects(fetcher.fetch(`http://${NAME}:${port}/second`, limits), blockedFor('127.0.0.1'));
      assert.equal(resolver.calls, 2);
      assert.deepEqual(stopped, [PUBLIC], 'the rebound answer never reached a socket');
      assert.equal(connections, 0);
      assert.equal(requests, 0);
    } finally {
      await fetcher.close();
    }
  });

  it('refuses the rebinding name through open() too (the crawler path)', async () => {
    const resolver = scriptedResolver([PUBLIC], ['127.0.0.1']);
    const fetcher = new GuardedFetcher({ allowPrivate: false, lookup: resolver });
    try {
      const url = new URL(`http://${NAME}:${port}/`);
      await assert.rejects(fetcher.open(url, { method: 'GET', timeoutMs: 5000 }), stoppedAt(PUBLIC));
      await assert.rejects(fetcher.open(url, { method: 'HEAD', timeoutMs: 5000 }), blockedFor('127.0.0.1'));
      assert.equal(connections, 0);
    } finally {
      await fetcher.close();
    }
  });

  const mixed: [string, string[], string][] = [
    ['public first, then 127.0.0.1', [PUBLIC, '127.0.0.1'], '127.0.0.1'],
    ['127.0.0.1 first, then public', ['127.0.0.1', PUBLIC], '127.0.0.1'],
    ['public IPv4 and IPv6 loopback', [PUBLIC, '::1'], '::1'],
    ['public and the metadata address', [PUBLIC, '169.254.169.254'], '169.254.169.254'],
    ['public and IPv4-mapped loopback', [PUBLIC, '::ffff:127.0.0.1'], '::ffff:127.0.0.1'],
  ];
  for (const [what, answer, bad] of mixed) {
    it(`refuses a name resolving to ${what} whole, before any connection`, async () => {
      const resolver = scriptedResolver(answer);
      const fetcher = new GuardedFetcher({ allowPrivate: false, lookup: resolver });
      try {
        await assert.rejects(fetcher.fetch(`http://${NAME}:${port}/`, limits), blockedFor(bad));
        assert.deepEqual(stopped, [], 'not even the public address was tried');
        assert.equal(connections, 0);
        assert.equal(requests, 0);
      } finally {
        await fetcher.close();
      }
    });
  }

  it('with private targets allowed (LOUPE_CRAWL_ALLOW_PRIVATE) the rebound name reaches the loopback server', async () => {
    const resolver = scriptedResolver(['127.0.0.1']);
    const fetcher = new GuardedFetcher({ allowPrivate: true, lookup: resolver });
    try {
      const fetched = await fetcher.fetch(`http://${NAME}:${port}/`, limits);
      assert.equal(fetched.body.toString(), 'private content');
      assert.equal(resolver.calls, 1);
      assert.equal(connections, 1);
      assert.equal(requests, 1);
    } finally {
      await fetcher.close();
    }
  });
});

describe('guarded lookup, called as a socket calls it', () => {
  const call = (resolve: Resolve, all: boolean, allowPrivate = false) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((done) =>
      guardedLookup(resolve, allowPrivate)(NAME, { all }, (error, address, family) => done({ error, address, family })),
    );

  it('hands the socket exactly the addresses it checked (single and all)', async () => {
    const one = await call(scriptedResolver([PUBLIC, '8.8.8.8']), false);
    assert.deepEqual(one, { error: null, address: PUBLIC, family: 4 });
    const all = await call(scriptedResolver([PUBLIC, '2606:2800:220:1:248:1893:25c8:1946']), true);
    assert.equal(all.error, null);
    assert.deepEqual(all.address, [
      { address: PUBLIC, family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
  });

  it('refuses in both forms when any address is private', async () => {
    for (const all of [false, true]) {
      const { error } = await call(scriptedResolver([PUBLIC, '10.0.0.5']), all);
      assert.ok(error instanceof BlockedAddressError && error.address === '10.0.0.5');
    }
  });

  it('fails an empty answer as ENOTFOUND instead of throwing', async () => {
    const { error } = await call(scriptedResolver([]), false);
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOTFOUND');
  });

  it('passes private addresses through when allowed', async () => {
    const { error, address } = await call(scriptedResolver(['127.0.0.1']), false, true);
    assert.equal(error, null);
    assert.equal(address, '127.0.0.1');
  });
});
