import { lookup as dnsLookup } from 'node:dns';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, isIP, Socket } from 'node:net';
import { pipeline } from 'node:stream';
import { BlockedAddressError, guardedLookup, isPublicAddress, type Resolve } from '../outbound/address-guard.ts';

export interface GuardedProxyOptions {
  /** LOUPE_CRAWL_ALLOW_PRIVATE: private targets pass (local tests only). */
  allowPrivate: boolean;
  /** Replaces `dns.lookup` (tests); the guard checks whatever it answers, at connect time. */
  resolve?: Resolve;
  /** Told of every connection the guard refused, with the address it would have reached. */
  onRefused?: (target: string, address: string) => void;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`: what Chromium's `--proxy-server` names. */
  url: string;
  close(): Promise<void>;
}

/** Headers that describe one hop (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A tunnel or forwarded request left idle this long is closed: a page cannot pin sockets open. */
const IDLE_MS = 30_000;

/**
 * The only way out of the rendering browser. Chromium is started with this proxy for every
 * scheme and no bypass, and with its own resolver disabled, so each request a page makes
 * (documents, scripts, XHR, images, fonts, iframes, websockets, workers, redirects) arrives
 * here as a CONNECT tunnel or an absolute-form HTTP request. The target is connected to
 * through the crawler's address guard: names are resolved inside the socket's lookup and
 * checked there (DNS rebinding cannot slip between check and connect), literal addresses are
 * checked before connecting, since sockets never look them up.
 */
export async function startGuardedProxy(options: GuardedProxyOptions): Promise<GuardedProxy> {
  const lookup = guardedLookup(options.resolve ?? dnsLookup, options.allowPrivate);
  const sockets = new Set<Socket>();

  /** Connects to host:port through the guard; refusals become BlockedAddressErrors on the socket. */
  const dial = (host: string, port: number): Socket => {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare) && !options.allowPrivate && !isPublicAddress(bare)) {
      // Never connected: it fails as a refused name would, once the caller listens.
      const refused = new Socket();
      process.nextTick(() => refused.destroy(new BlockedAddressError(bare, bare)));
      return refused;
    }
    return connect({ host: bare, port, lookup });
  };

  const refusal = (target: string, error: unknown) => {
    if (error instanceof BlockedAddressError) options.onRefused?.(target, error.address);
  };

  const server = createServer((request, response) => forward(request, response, dial, refusal));
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    // Node's server drops its own error listener once a socket is handed to 'connect': a
    // browser closing mid-dial would otherwise throw ECONNRESET at the process.
    client.on('error', () => upstream?.destroy());
    const target = parseAuthority(request.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const upstream: Socket = dial(target.host, target.port);
    upstream.setTimeout(IDLE_MS, () => upstream.destroy());
    client.setTimeout(IDLE_MS, () => client.destroy());
    upstream.once('connect', () => {
      // Node's pipeline throws at the process, not its callback, when a stream is already destroyed.
      if (client.destroyed) return void upstream.destroy();
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      pipeline(client, upstream, client, () => undefined);
    });
    upstream.once('error', (error) => {
      refusal(`${target.host}:${target.port}`, error);
      if (client.writable)
        client.end(error instanceof BlockedAddressError ? 'HTTP/1.1 403 Forbidden\r\n\r\n' : 'HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
  });
  // A websocket is always tunnelled through CONNECT; an upgrade in absolute form is refused.
  server.on('upgrade', (_request, client: Socket) => {
    client.on('error', () => client.destroy());
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `host:port` of a CONNECT request (`[::1]:443` included), or undefined. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  try {
    const url = new URL(`http://${authority}`);
    const port = Number(url.port);
    if (!url.port || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
    return { host: url.hostname, port };
  } catch {
    return undefined;
  }
}

/** Plain HTTP: the request arrives in absolute form and goes out on a guarded socket of its own. */
function forward(
  request: IncomingMessage,
  response: ServerResponse,
  dial: (host: string, port: number) => Socket,
  refusal: (target: string, error: unknown) => void,
): void {
  let target: URL;
  try {
    target = new URL(request.url ?? '');
    if (target.protocol !== 'http:') throw new Error('not http');
  } catch {
    response.writeHead(400).end();
    return;
  }
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  const port = Number(target.port || 80);
  const upstream = httpRequest({
    method: request.method,
    path: `${target.pathname}${target.search}`,
    headers: { ...headers, connection: 'close' },
    createConnection: () => dial(target.hostname, port),
    timeout: IDLE_MS,
  });
  upstream.on('timeout', () => upstream.destroy());
  // A request the browser abandons (a tab that navigated on) is abandoned upstream too.
  response.once('close', () => {
    if (!response.writableFinished) upstream.destroy();
  });
  upstream.on('response', (answer) => {
    // Piping into a response already closed would throw at the process, outside pipeline's callback.
    if (response.destroyed) return void answer.destroy();
    const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    response.writeHead(answer.statusCode ?? 502, kept);
    pipeline(answer, response, () => undefined);
  });
  upstream.on('error', (error) => {
    refusal(`${target.hostname}:${port}`, error);
    // The header tells the renderer this 403 is the guard's, not the site's.
    if (!response.headersSent) {
      if (error instanceof BlockedAddressError) response.writeHead(403, { 'x-loupe-guard': 'refused' });
      else response.writeHead(502);
    }
    response.end();
  });
  pipeline(request, upstream, () => undefined);
}
