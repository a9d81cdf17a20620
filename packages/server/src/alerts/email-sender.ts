import nodemailer, { type Transporter } from 'nodemailer';
import type { AttemptResult } from './webhook-sender.ts';

/** What a message says, in both forms a mail reader may show. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** An SMTP server that has not greeted or answered within these is retried later. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Sends Loupe's emails (alerts, password reset links) through the operator's SMTP server
 * (LOUPE_SMTP_URL), one connection per message: they are rare, and a pool would hold a
 * connection open between them. The server is configured by the operator, not by a
 * workspace, so it is not behind the address guard.
 */
export class EmailSender {
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(options: { smtpUrl: string; from: string }) {
    this.#transport = nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS });
    this.#from = options.from;
  }

  /**
   * A permanent SMTP refusal (5xx: no such mailbox, message refused) is final; anything else
   * (4xx, no connection, a timeout, failed authentication the operator may fix) is retried.
   */
  async send(message: { to: string[]; email: MailContent; headers?: Record<string, string> }): Promise<AttemptResult> {
    try {
      const info = await this.#transport.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.email.subject,
        text: message.email.text,
        html: message.email.html,
        // RFC 3834: no vacation replies to a machine's mail.
        headers: { ...message.headers, 'Auto-Submitted': 'auto-generated' },
      });
      const rejected = (info.rejected ?? []).map(String);
      return {
        kind: 'delivered',
        status: replyCode(info.response),
        error: rejected.length > 0 ? `Refused for ${rejected.join(', ')}` : null,
      };
    } catch (error) {
      const { responseCode, message: text } = error as { responseCode?: number; message?: string };
      const status = typeof responseCode === 'number' ? responseCode : null;
      const final = status !== null && status >= 500 && status < 600;
      return { kind: final ? 'failed' : 'retry', status, error: `SMTP: ${text ?? String(error)}` };
    }
  }
}

function replyCode(response: unknown): number | null {
  const match = typeof response === 'string' ? /^(\d{3})/.exec(response) : null;
  return match ? Number(match[1]) : null;
}
