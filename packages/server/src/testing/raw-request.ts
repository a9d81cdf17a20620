import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent exactly as written: `..`, `%E0` and the like are not normalised as fetch would. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One HTTP request to `origin` with the path and body as given, its answer read whole. */
export function rawRequest(origin: string, sent: RawRequest, timeoutMs = 15_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  // Node frames a DELETE's body only when told its length.
  const headers = sent.body === undefined ? sent.headers : { ...sent.headers, 'content-length': String(Buffer.byteLength(sent.body)) };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { agent, hostname, port, method: sent.method, path: sent.path, headers, signal: AbortSignal.timeout(timeoutMs) },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, contentType: String(answer.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
        );
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}
