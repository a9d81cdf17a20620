import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Sent exactly as written: `..`, `%E0` and the like are not normalised as fetch would. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * The whole request as it goes on the socket, for what an HTTP client refuses to send (a NUL
   * in the path or a header, a 20 KB request line); `method` and `path` then only name it.
   */
  wire?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One HTTP request to `origin` with the path and body as given, its answer read whole. */
export function rawRequest(origin: string, sent: RawRequest, timeoutMs = 15_000): Promise<RawAnswer> {
  if (sent.wire !== undefined) return wireRequest(origin, sent.wire, timeoutMs);
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
          resolve({
            status: answer.statusCode ?? 0,
            contentType: String(answer.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

/** The body of a chunked answer, its chunks joined. */
function unchunked(body: string): string {
  let text = '';
  for (let at = 0; at < body.length; ) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (lineEnd === -1 || !(size > 0)) break;
    text += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return text;
}

/**
 * `text` (a request with `Connection: close`) written on a new connection as it is, and the one
 * answer read until the server closes (a request it cannot parse is answered, then the connection ends). A reset after
 * the answer arrived is not an error: a server may close with the rest of a refused request unread.
 */
function wireRequest(origin: string, text: string | Buffer, timeoutMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const settle = (error?: Error) => {
      const received = Buffer.concat(chunks).toString('utf8');
      const headEnd = received.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (!status || headEnd === -1) return reject(error ?? new Error(`not an HTTP answer: ${received.slice(0, 200)}`));
      const head = received.slice(0, headEnd);
      const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
      const body = received.slice(headEnd + 4);
      resolve({
        status: Number(status[1]),
        contentType: header('content-type'),
        text: /chunked/i.test(header('transfer-encoding')) ? unchunked(body) : body,
      });
    };
    socket.on('error', settle);
    socket.on('close', () => settle());
    // Not a half-close: Node's server drops a request still being handled when its client ends
    // its side. The request says `Connection: close`, so the server closes once it has answered.
    socket.write(text);
  });
}
