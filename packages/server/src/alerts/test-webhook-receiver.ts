import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** Whether Loupe-Signature held for the receiver's secret, within five minutes. */
  signatureValid: boolean;
  /** The status the receiver answered. */
  answered: number;
}

/** A webhook endpoint on loopback that checks signatures the way a careful receiver would. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>` */
  url(path?: string): string;
  /** The secret signatures are checked with; set it once Loupe has generated or been given one. */
  secret: string;
  /** Statuses to answer to the next validly signed requests, in order; 200 once they run out. */
  script: number[];
  readonly received: readonly ReceivedWebhook[];
  close(): Promise<void>;
}

/** Checks `t=<seconds>,v1=<hex>` independently of the contract's verifier (node:crypto, not WebCrypto). */
export function signatureHolds(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match || secret === '') return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`, 'utf8').digest();
  const given = Buffer.from(match[2], 'hex');
  return timingSafeEqual(expected, given) && Math.abs(nowSeconds - Number(match[1])) <= 300;
}

/** Answers 401 to a request whose signature does not hold, else the next scripted status. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver = {
    secret: '',
    script: [] as number[],
    received,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['loupe-signature'];
      const signatureValid = signatureHolds(receiver.secret, Array.isArray(header) ? header[0] : header, body);
      const answered = signatureValid ? (receiver.script.shift() ?? 200) : 401;
      received.push({ path: req.url ?? '/', headers: req.headers, body, signatureValid, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' });
      res.end(answered < 300 ? 'ok' : `refused with ${answered}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(receiver, {
    url: (path = '/hook') => `${origin}${path}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  });
}
