/**
 * A folder of files served on loopback by sirv, a real static file server (Content-Type from
 * the extension, ETag and Last-Modified, no compression: sirv serves precompressed files only
 * when asked, and none is asked), in this process, counting requests. Missing files answer 404.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';
import { cleanups } from './bench-kit.ts';

export interface StaticSite {
  origin: string;
  url(path: string): string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/** `onRequest` is told the path of each request as it arrives. */
export async function startStaticSite(dir: string, onRequest?: (pathname: string) => void): Promise<StaticSite> {
  // Not dev: the file list is read once, at start, as a production server would.
  const serve = sirv(dir, { dev: false, etag: true, gzip: false, brotli: false });
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    onRequest?.(new URL(request.url ?? '/', 'http://site').pathname);
    serve(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  cleanups.push(close);
  return { origin, url: (path) => new URL(path, origin).toString(), requests: () => requests, close };
}
