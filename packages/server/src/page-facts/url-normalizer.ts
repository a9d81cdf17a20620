/**
 * One spelling per page, so the frontier, the robots check, the sitemap comparison and the
 * report all agree on what "the same URL" means. The WHATWG URL parser does most of the
 * work (lowercase scheme and host, punycode for IDN hosts, default ports dropped, `.` and
 * `..` segments resolved, percent-encoding of the characters it must encode); on top of it
 * we drop the fragment, the tracking parameters and an empty `?`.
 *
 * Left exactly as the parser gives them, on purpose: the case of the path and of
 * percent-escapes (`%7e` and `%7E` stay distinct, and neither becomes `~`), the order of
 * the remaining query parameters, empty `&&` pieces, a trailing slash, a trailing dot in the
 * host, and user info. Servers may treat any of these as meaningful.
 */

/**
 * Query parameters that only say where a visitor came from. Matched on the decoded
 * parameter name, case-insensitively; `utm_` is a prefix (utm_source, utm_medium,
 * utm_campaign, utm_term, utm_content, utm_id, …).
 *
 * - gclid, dclid, gbraid, wbraid: Google Ads / Display & Video click ids
 * - fbclid: Facebook; msclkid: Microsoft Ads; yclid: Yandex; igshid: Instagram share
 * - mc_cid, mc_eid: Mailchimp campaign and subscriber
 * - _ga, _gl: Google Analytics cross-domain linker
 * - ref_src: Twitter/X embeds
 */
export const TRACKING_PARAMETERS: readonly string[] = [
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  'igshid',
  'yclid',
  'ref_src',
];
const TRACKING_PREFIX = 'utm_';
const trackingNames = new Set(TRACKING_PARAMETERS);

/**
 * The canonical form of `href` (resolved against `base`), or null when it is not an
 * http(s) URL or does not parse (mailto:, javascript:, data:, tel:, ftp:, `http://[`).
 */
export function normalizeUrl(href: string, base?: string | URL): string | null {
  const url = parsedHttpUrl(href, base);
  if (url === null) return null;
  // Cut from the serialization rather than through the setters: the first `#` of an href is
  // its fragment and the first `?` before it its query (both are escaped anywhere else).
  let normalized = url.href;
  const hash = normalized.indexOf('#');
  if (hash !== -1) normalized = normalized.slice(0, hash);
  const query = normalized.indexOf('?');
  return query === -1 ? normalized : normalized.slice(0, query) + withoutTracking(normalized.slice(query));
}

/** `href` parsed (against `base`) when it is an http(s) URL; null otherwise. */
function parsedHttpUrl(href: string, base?: string | URL): URL | null {
  const url = URL.parse(href, base);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null;
}

/** True when `name` (as it appears in a query string, still encoded) is a tracking parameter. */
export function isTrackingParameter(name: string): boolean {
  const decoded = decodeQueryComponent(name).toLowerCase();
  return decoded.startsWith(TRACKING_PREFIX) || trackingNames.has(decoded);
}

/**
 * True when both parse and share scheme, host and port after normalization: this is the
 * crawler's "internal link" test, an origin comparison rather than the browser's
 * registrable-domain "same-site". `www.example.com` and `example.com` are different sites
 * unless `ignoreWww` is set (then one leading `www.` is ignored on each side), and
 * `http:` and `https:` are always different.
 */
export function sameSite(a: string, b: string, options: { ignoreWww?: boolean } = {}): boolean {
  // Normalizing changes neither scheme nor host, so the parsed URLs are compared directly.
  const x = parsedHttpUrl(a);
  const y = parsedHttpUrl(b);
  if (x === null || y === null) return false;
  const host = (url: URL) => (options.ignoreWww ? url.host.replace(/^www\./, '') : url.host);
  return x.protocol === y.protocol && host(x) === host(y);
}

/**
 * Removes tracking pieces from a serialized query, keeping the others byte for byte and in
 * order. Going through URLSearchParams would re-encode them (`%20` → `+`, `~` → `%7E`).
 */
function withoutTracking(search: string): string {
  if (search.length <= 1) return '';
  const kept = search
    .slice(1)
    .split('&')
    .filter((piece) => !isTrackingParameter(piece.split('=', 1)[0] as string));
  const query = kept.join('&');
  return query === '' ? '' : `?${query}`;
}

function decodeQueryComponent(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
