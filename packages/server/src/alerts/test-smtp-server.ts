import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  recipients: string[];
  /** The user that authenticated. */
  user: string | undefined;
  /** Header names lower-cased, folded lines joined, encoded words decoded. */
  headers: Record<string, string>;
  /** The decoded text/plain and text/html parts. */
  text: string;
  html: string;
}

/** A real SMTP server on loopback that takes mail for anyone but `nobody@…`, after AUTH with its one login. */
export interface TestSmtpServer {
  /** `smtp://user:pass@127.0.0.1:<port>` */
  url: string;
  readonly mails: readonly ReceivedMail[];
  /** Resolves once `count` messages have arrived in all. */
  waitForMails(count: number): Promise<readonly ReceivedMail[]>;
  close(): Promise<void>;
}

const USER = 'alerts';
const PASSWORD = 'smtp-test-password';

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiters: { count: number; resolve(mails: readonly ReceivedMail[]): void }[] = [];
  const server = new SMTPServer({
    // No certificate on loopback: plain SMTP, with AUTH allowed over it.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: USER });
      return callback(new Error('Invalid username or password'));
    },
    // A mailbox that does not exist, for a refusal that is final (550).
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          recipients: session.envelope.rcptTo.map((address) => address.address),
          user: session.user as string | undefined,
          ...parseMessage(Buffer.concat(chunks).toString('latin1')),
        });
        for (const waiter of waiters.filter((w) => mails.length >= w.count)) waiter.resolve(mails);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    mails,
    waitForMails(count) {
      if (mails.length >= count) return Promise.resolve(mails);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Just enough MIME (RFC 2045–2047) to read what nodemailer writes: headers, and the parts of a multipart body. */
function parseMessage(raw: string): Pick<ReceivedMail, 'headers' | 'text' | 'html'> {
  const { headers, body } = splitEntity(raw);
  let text = '';
  let html = '';
  const visit = (entityHeaders: Record<string, string>, entityBody: string) => {
    const type = entityHeaders['content-type'] ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const part of entityBody.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break;
        const child = splitEntity(part.replace(/^\r\n/, ''));
        visit(child.headers, child.body);
      }
      return;
    }
    const decoded = decodeBody(entityBody, entityHeaders['content-transfer-encoding'] ?? '7bit');
    if (type.startsWith('text/plain')) text += decoded;
    if (type.startsWith('text/html')) html += decoded;
  };
  visit(headers, body);
  return { headers, text, html };
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) };
}

function decodeBody(body: string, encoding: string): string {
  const bytes = Buffer.from(body, 'latin1');
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(bytes.toString('latin1').replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return quotedPrintable(bytes.toString('latin1').replace(/=\r\n/g, '')).toString('utf8');
    default:
      return bytes.toString('utf8');
  }
}

function quotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words, adjacent ones joined as RFC 2047 says. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_word, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}
