/**
 * Signed alert webhooks, shared by the server (which signs) and the SDK (whose users verify).
 * WebCrypto only: this module also runs in browsers and edge runtimes.
 *
 * The `Loupe-Signature` header is `t=<unix seconds>,v1=<hex HMAC-SHA256>`, the HMAC keyed
 * with the UTF-8 bytes of the channel's secret over `<t>.<raw body>`. Signing the time with
 * the body (as Stripe does) lets a receiver refuse a captured request replayed later: check
 * that `t` is recent, not only that the digest matches. Several `v1=` entries may appear
 * (a receiver accepts any that matches), which leaves room to roll a secret.
 */
import { hmacSha256Hex, hmacSha256Matches } from '../common/hmac-sha256.ts';

export const WEBHOOK_SIGNATURE_HEADER = 'Loupe-Signature';
export const WEBHOOK_DELIVERY_HEADER = 'Loupe-Delivery';

/** How far `t` may be from the receiver's clock when nothing else is said: five minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The `Loupe-Signature` header value for `body` sent at `timestampSeconds`. */
export async function signWebhook(secret: string, timestampSeconds: number, body: string): Promise<string> {
  if (!Number.isInteger(timestampSeconds) || timestampSeconds < 0) throw new TypeError('The timestamp must be whole Unix seconds.');
  if (secret === '') throw new TypeError('A webhook secret must not be empty.');
  return `t=${timestampSeconds},v1=${await hmacSha256Hex(secret, `${timestampSeconds}.${body}`)}`;
}

export type WebhookSignatureCheck = 'valid' | 'malformed' | 'invalid' | 'stale';

/**
 * Checks a `Loupe-Signature` header against the raw body as received (before any JSON
 * parsing: a re-serialised body would not match). `stale` means a genuine signature whose
 * time is more than `toleranceSeconds` from `nowSeconds`. Digests are compared by
 * `crypto.subtle.verify`, constant-time by construction.
 *
 * @example
 * const check = await verifyWebhookSignature(secret, request.headers.get('loupe-signature'), rawBody);
 * if (check !== 'valid') return new Response('bad signature', { status: 400 });
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): Promise<WebhookSignatureCheck> {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return 'malformed';
  if (secret === '') throw new TypeError('A webhook secret must not be empty.');
  if (!(await hmacSha256Matches([secret], `${parsed.timestamp}.${body}`, parsed.digests))) return 'invalid';
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  return Math.abs(nowSeconds - parsed.timestamp) > tolerance ? 'stale' : 'valid';
}

/** `t` and every well-formed `v1` digest of the header, or null when either is missing. */
export function parseSignatureHeader(header: string | null | undefined): { timestamp: number; digests: string[] } | null {
  if (!header) return null;
  let timestamp: number | undefined;
  const digests: string[] = [];
  for (const part of header.split(',')) {
    const [name, value, ...rest] = part.trim().split('=');
    if (value === undefined || rest.length > 0) continue;
    if (name === 't' && /^[0-9]{1,15}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) digests.push(value);
  }
  return timestamp === undefined || digests.length === 0 ? null : { timestamp, digests };
}
