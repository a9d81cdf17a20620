import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of a scripted server. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as it is; anything else as JSON. */
  body?: unknown;
}

export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request in arrival order. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on a loopback port that answers its requests with `answers` in turn
 * (the last one again once they run out): for what the Loupe server cannot be made to answer
 * on demand, such as a 429 followed by a success, or a proxy's HTML error page. Unlike the
 * crawler's test site it takes any method and keeps request bodies.
 */
export async function startScriptedServer(answers: ScriptedAnswer[]): Promise<ScriptedServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks) });
    const answer = answers[Math.min(received.length, answers.length) - 1]!;
    const isText = typeof answer.body === 'string';
    const body = answer.body === undefined ? '' : isText ? (answer.body as string) : JSON.stringify(answer.body);
    const contentType = isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    response.writeHead(answer.status, { 'content-type': contentType, ...answer.headers });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
