/**
 * Signed CDN URLs (DESIGN.md §7), shared by the server and the SDK, so both build the
 * signed string from one definition. WebCrypto only: this module also runs in browsers.
 *
 * The string signed is `/<slug>/<encodedPath>?<query>`:
 * - `slug` is RFC 3986-encoded (generated slugs are unchanged by it);
 * - `encodedPath` is taken byte for byte as it appears in the URL after `/cdn/<slug>/`,
 *   never decoded or re-encoded, so the server signs what it received (build it with
 *   `encodeImagePath`);
 * - `query` is every parameter except `s`, names and values RFC 3986-encoded as
 *   `name=value`, sorted by the unencoded name in UTF-16 code-unit order, joined by `&`;
 *   the `?` is present even when the query is empty.
 * Parameters are decoded values, so the query's encoding in the URL does not matter; a
 * name can appear only once (a record cannot hold two), and the CDN layer refuses a URL
 * that repeats one before it gets here.
 *
 * The key is the UTF-8 bytes of the project's secret as the API shows it; the signature
 * is lowercase hex HMAC-SHA256. `exp`, when present, is Unix seconds and the URL is
 * expired from that second on.
 */
import { hmacSha256Hex, hmacSha256Matches } from '../common/hmac-sha256.ts';

/** encodeURIComponent plus `!'()*`, which RFC 3986 reserves but encodeURIComponent keeps. */
export function rfc3986Encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An image path as it appears in a CDN URL: each segment RFC 3986-encoded, slashes kept. */
export function encodeImagePath(path: string): string {
  return path.split('/').map(rfc3986Encode).join('/');
}

/** The parameters except `s`, sorted by name and RFC 3986-encoded: the signed query. */
export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((name) => name !== 's')
    .sort()
    .map((name) => `${rfc3986Encode(name)}=${rfc3986Encode(params[name]!)}`)
    .join('&');
}

/** `/<slug>/<encodedPath>?<sorted, RFC 3986-encoded query without s>` — the exact string signed. */
export function canonicalSigningString(slug: string, encodedPath: string, params: Record<string, string>): string {
  return `/${rfc3986Encode(slug)}/${encodedPath}?${canonicalQuery(params)}`;
}

/** The lowercase hex HMAC-SHA256 of the canonical string with `secret`. */
export async function signCdnPath(secret: string, slug: string, encodedPath: string, params: Record<string, string>): Promise<string> {
  if (secret === '') throw new TypeError('A signing secret must not be empty.');
  return hmacSha256Hex(secret, canonicalSigningString(slug, encodedPath, params));
}

export type CdnSignatureCheck = 'valid' | 'missing' | 'invalid' | 'expired';

/**
 * Checks `s` (and `exp` against `nowSeconds`) with each candidate secret: the current one,
 * then the previous one while its grace period lasts. `missing` means no `s` parameter;
 * a malformed `s` or `exp` is `invalid`. Expiry is judged only once the signature holds,
 * so `expired` always means a genuine URL whose time has passed.
 * The digest is compared by `crypto.subtle.verify`, constant-time by construction.
 */
export async function verifyCdnSignature(
  secrets: string[],
  slug: string,
  encodedPath: string,
  params: Record<string, string>,
  nowSeconds: number,
): Promise<CdnSignatureCheck> {
  const signature = params.s;
  if (signature === undefined) return 'missing';
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return 'invalid';
  const exp = params.exp;
  if (exp !== undefined && !/^[0-9]{1,15}$/.test(exp)) return 'invalid';

  if (!(await hmacSha256Matches(secrets, canonicalSigningString(slug, encodedPath, params), [signature]))) return 'invalid';
  return exp !== undefined && nowSeconds >= Number(exp) ? 'expired' : 'valid';
}
