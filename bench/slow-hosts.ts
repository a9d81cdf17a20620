/**
 * Every external host of a crawled site, slow, on one loopback address (bench-resolver.ts's
 * `slow` mode answers every name with it): port 80 accepts and answers 200 after `slowMs`;
 * port 443 accepts and says nothing, so a TLS handshake waits for the client's timeout, as a
 * host behind a black-holing firewall does. Binding ports 80 and 443 needs root (or
 * CAP_NET_BIND_SERVICE). Counts what arrived, for the bench to tell how many checks were made.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { cleanups } from './bench-kit.ts';

/** A loopback address of its own, so the slow hosts never collide with the sites on 127.0.0.1. */
export const SLOW_HOSTS_ADDRESS = '127.0.0.2';

export interface SlowHosts {
  /** HTTP requests on port 80, answered or not yet. */
  httpRequests: number;
  /** TCP connections on port 443, each held until the client gives up. */
  tlsConnections: number;
  close(): Promise<void>;
}

function listen(server: Server | HttpServer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EACCES'
          ? new Error(`BENCH_EXTERNAL=slow listens on ${SLOW_HOSTS_ADDRESS}:${port}, which needs root: ${error.message}`)
          : error,
      ),
    );
    server.listen(port, SLOW_HOSTS_ADDRESS, () => resolve());
  });
}

export async function startSlowHosts(slowMs: number): Promise<SlowHosts> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const hold = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const hosts: SlowHosts = { httpRequests: 0, tlsConnections: 0, close: async () => {} };

  const http = createHttpServer((request, response) => {
    hosts.httpRequests++;
    request.resume();
    const timer = setTimeout(() => {
      timers.delete(timer);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '2' });
      response.end(request.method === 'HEAD' ? undefined : 'ok');
    }, slowMs);
    timers.add(timer);
  });
  http.on('connection', hold);
  const tls = createTcpServer((socket) => {
    hosts.tlsConnections++;
    hold(socket);
    // Read and drop the ClientHello, so that the client's close is seen and the socket freed.
    socket.resume();
  });
  await listen(http, 80);
  await listen(tls, 443).catch(async (error: unknown) => {
    await new Promise((resolve) => http.close(resolve));
    throw error;
  });

  let closing: Promise<void> | undefined;
  hosts.close = () =>
    (closing ??= (async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise((resolve) => http.close(resolve)), new Promise((resolve) => tls.close(resolve))]);
    })());
  cleanups.push(hosts.close);
  return hosts;
}
