import { signWebhook } from '@loupe/contract';
import type { Dispatcher } from 'undici';
import { BlockedAddressError } from '../outbound/address-guard.ts';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';

export const WEBHOOK_USER_AGENT = 'Loupe-Webhook/1.0 (+https://github.com/loupe; alerts)';

/** A receiver has this long to answer; a slow one is retried like one that failed. */
const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an error answer's body the delivery log keeps. */
const ERROR_EXCERPT_BYTES = 300;

/** How one attempt went: delivered, worth another try later, or not worth another try. */
export interface AttemptResult {
  kind: 'delivered' | 'retry' | 'failed';
  /** The HTTP status (webhooks) or SMTP reply code (email), when there was an answer. */
  status: number | null;
  error: string | null;
}

/**
 * POSTs an alert's JSON through the address guard, signed for this moment (a retry signs
 * anew, so its timestamp is fresh). 2xx is delivered; a 4xx other than 408 and 429 says the
 * request itself is refused, so it is not repeated; anything else (5xx, 3xx, timeouts,
 * refused connections) may pass later.
 */
export async function sendWebhook(
  fetcher: GuardedFetcher,
  delivery: { url: string; secret: string; body: string; deliveryId: string; signal?: AbortSignal },
): Promise<AttemptResult> {
  const signature = await signWebhook(delivery.secret, Math.floor(Date.now() / 1000), delivery.body);
  let response: Dispatcher.ResponseData;
  try {
    response = await fetcher.open(new URL(delivery.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'loupe-signature': signature,
        'loupe-delivery': delivery.deliveryId,
      },
      body: delivery.body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      signal: delivery.signal,
    });
  } catch (error) {
    if (error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError) {
      return { kind: 'failed', status: null, error: 'The webhook address is not public; Loupe does not send to it.' };
    }
    return { kind: 'retry', status: null, error: `No answer: ${describe(error)}` };
  }
  const status = response.statusCode;
  const excerpt = await readExcerpt(response.body);
  if (status >= 200 && status < 300) return { kind: 'delivered', status, error: null };
  const error = `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`;
  const final = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return { kind: final ? 'failed' : 'retry', status, error };
}

/** The start of the answer's body, as one line of text; the rest is not read. */
async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= ERROR_EXCERPT_BYTES) break;
    }
  } catch {
    // A body cut short still leaves the status, which is what counts.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks)
    .subarray(0, ERROR_EXCERPT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
}
