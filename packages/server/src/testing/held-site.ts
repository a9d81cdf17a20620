import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback site whose answers wait until the test lets them go: links that answer slowly, for as long as a test needs. */
export interface HeldSite {
  url(path: string): string;
  /** Requests that arrived, answered or not. */
  requests(): number;
  /** Answers every held request (200, a small page), and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startHeldSite(): Promise<HeldSite> {
  let held: ServerResponse[] = [];
  let released = false;
  let requests = 0;
  const answer = (response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ok</title>');
  const server = createServer((_request, response) => {
    requests++;
    if (released) answer(response);
    else held.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => origin + path,
    requests: () => requests,
    release() {
      released = true;
      for (const response of held) answer(response);
      held = [];
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
