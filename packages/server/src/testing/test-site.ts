import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';

/**
 * Written in a definition wherever an absolute URL of the site itself is needed (canonicals,
 * sitemap `<loc>`s, `Sitemap:` lines, redirects): the port is only known once the server
 * listens, so the server puts its origin in at serve time.
 */
export const ORIGIN = '{{origin}}';

/** A 200 `text/html` page when a string. */
export type PageSpec = string | ResponseSpec | RedirectSpec | RetryLaterSpec | DroppedSpec | LargeBodySpec | HangSpec;

export interface ResponseSpec {
  /** Defaults to 200. */
  status?: number;
  /** Added over the site's headers; `null` removes one of the site's. */
  headers?: Record<string, string | null>;
  body?: string | Buffer;
  /** Defaults to `text/html; charset=utf-8`. */
  contentType?: string;
  /** Waits this long before sending anything (a slow time to first byte). */
  delayMs?: number;
  /** Overrides the site's `compress`. */
  compress?: boolean;
}

/** A redirect to a path or absolute URL, sent as given in `Location`. Chains and loops are chains of these. */
export interface RedirectSpec {
  redirect: string;
  /** Defaults to 301. */
  status?: 301 | 302 | 303 | 307 | 308;
}

/** `status` with `Retry-After: retryAfter` for the first `times` requests (default 1) of the path, then `thenServe`. */
export interface RetryLaterSpec {
  status: 429 | 503;
  retryAfter: number;
  thenServe: PageSpec;
  times?: number;
}

/** The connection closed without an answer for the first `times` requests (default 1) of the path, then `thenServe`. */
export interface DroppedSpec {
  drop: true;
  thenServe: PageSpec;
  times?: number;
}

/** A body of `largeBody` bytes streamed in 64 KiB chunks, never held in memory; chunked unless `declareLength`. */
export interface LargeBodySpec {
  largeBody: number;
  contentType?: string;
  declareLength?: boolean;
}

/** A response that never finishes: no headers at all, or headers and the start of a body. */
export interface HangSpec {
  hang: 'before-headers' | 'mid-body';
}

export type SitemapSpec = string | Buffer | { gzip: string };

export interface SiteDefinition {
  /** Path (with query, or without to match any query) → page. */
  pages: Record<string, PageSpec>;
  /** Served at /robots.txt as text/plain; absent, /robots.txt is looked up like any page (so usually 404). */
  robotsTxt?: string | { status: number; body?: string };
  /** Path → sitemap. A string is XML; a Buffer is sent as is (`application/gzip` when it starts with the gzip magic); `{ gzip }` is gzipped after the origin is put in. */
  sitemaps?: Record<string, SitemapSpec>;
  /** For paths not in `pages` (given the request path with its query); undefined or 404 answers 404. */
  fallback?: 404 | ((path: string) => PageSpec | undefined);
  /** Sent with every answer; defaults to `secureHeaders`. */
  headers?: Record<string, string>;
  /** Gzip text answers of 1 KiB or more when the request accepts gzip; defaults to true. */
  compress?: boolean;
}

/** The headers the catalog's `security/headers` check looks for. */
export const secureHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "frame-ancestors 'self'",
};

export const notFoundPage: ResponseSpec = {
  status: 404,
  body: '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1></body></html>\n',
};

/** The page the site serves at `path`, as the server would choose it (without going through HTTP). */
export function resolvePage(site: SiteDefinition, path: string): PageSpec {
  const pathname = path.split('?')[0];
  if (Object.hasOwn(site.pages, path)) return site.pages[path];
  if (Object.hasOwn(site.pages, pathname)) return site.pages[pathname];
  return (typeof site.fallback === 'function' ? site.fallback(path) : undefined) ?? notFoundPage;
}

export interface LoggedRequest {
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  userAgent: string | undefined;
  headers: IncomingHttpHeaders;
  /** `performance.now()` when the request arrived: monotonic milliseconds, for politeness assertions. */
  time: number;
  /** Which connection carried it, numbered from 1 (to see keep-alive reuse). */
  connection: number;
}

export class RequestLog {
  #entries: LoggedRequest[] = [];
  #record: boolean;
  #waiters: { path: string; resolve(entry: LoggedRequest): void }[] = [];
  total = 0;
  inFlight = 0;
  peakInFlight = 0;

  constructor(record: boolean) {
    this.#record = record;
  }

  /** Every request in arrival order (empty when the site was started with `record: false`). */
  get entries(): readonly LoggedRequest[] {
    return this.#entries;
  }

  add(entry: LoggedRequest): void {
    this.total++;
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    if (this.#record) this.#entries.push(entry);
    const waiting = this.#waiters.filter((waiter) => waiter.path === entry.path);
    this.#waiters = this.#waiters.filter((waiter) => waiter.path !== entry.path);
    for (const waiter of waiting) waiter.resolve(entry);
  }

  /** The first request for `path`, once it has arrived (for a test that must act while a response hangs). */
  waitFor(path: string): Promise<LoggedRequest> {
    const seen = this.#entries.find((entry) => entry.path === path);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ path, resolve }));
  }

  paths(): string[] {
    return this.#entries.map((entry) => entry.path);
  }

  forPath(path: string): LoggedRequest[] {
    return this.#entries.filter((entry) => entry.path === path);
  }

  count(path: string): number {
    return this.forPath(path).length;
  }

  clear(): void {
    this.#entries = [];
    this.total = 0;
    this.peakInFlight = this.inFlight;
  }
}

export interface TestSite {
  /** `http://127.0.0.1:<port>`, or `https://…` for a site started with `tls`. */
  origin: string;
  url(path: string): string;
  requests: RequestLog;
  /** An https site's plain-http requests on the same port (its http:// twin); empty for an http site. */
  plainRequests: RequestLog;
  /** Stops listening and destroys open connections, hanging ones included. */
  close(): Promise<void>;
}

export interface TestSiteOptions {
  /** Keep every request in `requests.entries`; turn off for benchmarks, where the log would grow with the crawl. */
  record?: boolean;
  /**
   * Serve over https with this key and certificate (testing/test-certificate.ts). The same port
   * also speaks plain http, told apart by the first byte (a TLS handshake starts with 0x16), so
   * `http://127.0.0.1:<port>` is the site's real http:// twin; it serves `plainHttp`, whose
   * ORIGIN is the https origin (so a redirect to `ORIGIN + path` goes to https). Without
   * `plainHttp` every plain request gets 404.
   */
  tls?: { key: string | Buffer; cert: string | Buffer; plainHttp?: SiteDefinition };
}

const TEXT_TYPE = /^(text\/|application\/(xml|json|javascript|xhtml\+xml|[a-z.+-]+\+xml)|image\/svg\+xml)/;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const TLS_HANDSHAKE = 0x16;

export async function startTestSite(site: SiteDefinition, options: TestSiteOptions = {}): Promise<TestSite> {
  const requests = new RequestLog(options.record ?? true);
  const plainRequests = new RequestLog(options.record ?? true);
  const retriesServed = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const connections = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  let connectionCount = 0;
  let origin = '';
  const fill = (text: string): string => text.replaceAll(ORIGIN, origin);

  /** The request handler that serves one site definition, logging into `log`. */
  const handlerFor = (site: SiteDefinition, log: RequestLog): RequestListener => {
    const send = (req: IncomingMessage, res: ServerResponse, spec: ResponseSpec): void => {
      const headers: Record<string, string> = { 'content-type': spec.contentType ?? 'text/html; charset=utf-8' };
      for (const [name, value] of Object.entries(site.headers ?? secureHeaders)) headers[name.toLowerCase()] = fill(value);
      for (const [name, value] of Object.entries(spec.headers ?? {})) {
        if (value === null) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = fill(value);
      }
      let body = typeof spec.body === 'string' ? Buffer.from(fill(spec.body)) : (spec.body ?? Buffer.alloc(0));
      const compress = spec.compress ?? site.compress ?? true;
      if (
        compress &&
        body.length >= 1024 &&
        TEXT_TYPE.test(headers['content-type']) &&
        !headers['content-encoding'] &&
        /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
      ) {
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
        headers.vary = 'Accept-Encoding';
      }
      headers['content-length'] = String(body.length);
      res.writeHead(spec.status ?? 200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    };

    const serve = (req: IncomingMessage, res: ServerResponse, spec: PageSpec, path: string): void => {
      if (typeof spec === 'string') return send(req, res, { body: spec });
      if ('redirect' in spec) {
        return send(req, res, { status: spec.status ?? 301, headers: { location: fill(spec.redirect) }, contentType: 'text/plain' });
      }
      if ('retryAfter' in spec || 'drop' in spec) {
        const served = retriesServed.get(path) ?? 0;
        retriesServed.set(path, served + 1);
        if (served >= (spec.times ?? 1)) return serve(req, res, spec.thenServe, path);
        if ('drop' in spec) return void req.socket.destroy();
        return send(req, res, { status: spec.status, headers: { 'retry-after': String(spec.retryAfter) }, contentType: 'text/plain' });
      }
      if ('largeBody' in spec) return streamLarge(req, res, spec);
      if ('hang' in spec) {
        if (spec.hang === 'mid-body') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '100000' });
          res.write('<!doctype html>\n<html lang="en"><head><title>Never finished');
        }
        return;
      }
      if (spec.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(req, res, spec);
        }, spec.delayMs);
        timers.add(timer);
        return;
      }
      send(req, res, spec);
    };

    const serveSitemap = (req: IncomingMessage, res: ServerResponse, sitemap: SitemapSpec): void => {
      if (typeof sitemap === 'string') return send(req, res, { body: sitemap, contentType: 'application/xml; charset=utf-8' });
      const bytes = Buffer.isBuffer(sitemap) ? sitemap : gzipSync(fill(sitemap.gzip));
      const gzipped = bytes.subarray(0, 2).equals(GZIP_MAGIC);
      send(req, res, { body: bytes, contentType: gzipped ? 'application/gzip' : 'application/xml; charset=utf-8', compress: false });
    };

    return (req, res) => {
      const path = req.url ?? '/';
      log.add({
        method: req.method ?? 'GET',
        path,
        userAgent: req.headers['user-agent'],
        headers: req.headers,
        time: performance.now(),
        connection: connections.get(req.socket) ?? 0,
      });
      res.on('close', () => log.inFlight--);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(req, res, { status: 405, headers: { allow: 'GET, HEAD' }, contentType: 'text/plain' });
      }
      const pathname = path.split('?')[0];
      if (pathname === '/robots.txt' && site.robotsTxt !== undefined) {
        const robots = typeof site.robotsTxt === 'string' ? { status: 200, body: site.robotsTxt } : site.robotsTxt;
        return send(req, res, { status: robots.status, body: robots.body ?? '', contentType: 'text/plain; charset=utf-8' });
      }
      const sitemap = site.sitemaps && (Object.hasOwn(site.sitemaps, path) ? site.sitemaps[path] : site.sitemaps[pathname]);
      if (sitemap !== undefined) return serveSitemap(req, res, sitemap);
      serve(req, res, resolvePage(site, path), path);
    };
  };

  const track = (socket: Socket) => {
    connections.set(socket, ++connectionCount);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const servers: Server[] = [];
  let listener: Server | ReturnType<typeof createNetServer>;
  if (options.tls) {
    const secure = createHttpsServer({ key: options.tls.key, cert: options.tls.cert, keepAlive: true }, handlerFor(site, requests));
    const plain = createServer({ keepAlive: true }, handlerFor(options.tls.plainHttp ?? { pages: {} }, plainRequests));
    servers.push(secure, plain);
    // One port, two protocols: the first bytes are put back and the connection handed to
    // the server that speaks what they start.
    listener = createNetServer((socket) => {
      track(socket);
      socket.once('data', (chunk) => {
        socket.pause();
        socket.unshift(chunk);
        (chunk[0] === TLS_HANDSHAKE ? secure : plain).emit('connection', socket);
        process.nextTick(() => socket.resume());
      });
    });
  } else {
    const server = createServer({ keepAlive: true }, handlerFor(site, requests));
    server.on('connection', track);
    servers.push(server);
    listener = server;
  }
  for (const server of servers) server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(listener.address() as AddressInfo).port}`;

  return {
    origin,
    url: (path) => new URL(path, origin).href,
    requests,
    plainRequests,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const FILLER_CHUNK = Buffer.from(`<p>${'Large body filler text for size-limit tests. '.repeat(40)}</p>\n`);

function streamLarge(req: IncomingMessage, res: ServerResponse, spec: LargeBodySpec): void {
  const headers: Record<string, string> = { 'content-type': spec.contentType ?? 'text/html; charset=utf-8' };
  if (spec.declareLength) headers['content-length'] = String(spec.largeBody);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return void res.end();
  const chunks = function* (): Generator<Buffer> {
    const chunkSize = 64 * 1024;
    const template = Buffer.concat(Array.from({ length: Math.ceil(chunkSize / FILLER_CHUNK.length) }, () => FILLER_CHUNK)).subarray(
      0,
      chunkSize,
    );
    for (let sent = 0; sent < spec.largeBody; sent += chunkSize) yield template.subarray(0, Math.min(chunkSize, spec.largeBody - sent));
  };
  // A client that stops reading at its size limit resets the stream; that is the expected ending.
  pipeline(Readable.from(chunks()), res).catch(() => {});
}
