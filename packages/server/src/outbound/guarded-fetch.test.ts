import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { GuardedFetcher } from './guarded-fetch.ts';

describe('guarded fetches, stopped by their caller', () => {
  // A TLS handshake that never comes: undici notices an abort only once it has a connection,
  // which it would give up on at its connect timeout (10 s), far past this test's own.
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  const fetcher = new GuardedFetcher({ allowPrivate: true });

  async function silentOrigin(): Promise<{ origin: string; server: Server }> {
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { origin: `https://127.0.0.1:${(server.address() as { port: number }).port}`, server };
  }

  after(async () => {
    // The handshakes still waiting end with their sockets, so the fetcher closes at once.
    for (const socket of sockets) socket.destroy();
    for (const server of servers) server.close();
    await fetcher.close();
  });

  for (const [name, ask] of [
    ['open', (origin: string, signal: AbortSignal) => fetcher.open(new URL(`${origin}/a`), { method: 'HEAD', timeoutMs: 60_000, signal })],
    ['fetch', (origin: string, signal: AbortSignal) => fetcher.fetch(`${origin}/b`, { maxBytes: 1024, timeoutMs: 60_000, signal })],
  ] as const) {
    it(`${name} answers the abort at once while the handshake waits`, { timeout: 5_000 }, async () => {
      const { origin, server } = await silentOrigin();
      const stop = new AbortController();
      const connected = once(server, 'connection');
      const asked = ask(origin, stop.signal);
      await connected;
      stop.abort(new Error('stopped by the test'));
      await assert.rejects(asked, /stopped by the test/);
    });
  }
});
