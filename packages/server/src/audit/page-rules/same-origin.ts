/**
 * Whether `url`, serialized by the WHATWG URL parser (a link fact's `url`), has the serialized
 * `origin`. Such an href starts with its origin and the path's slash, unless user info comes
 * between scheme and host: only then is it parsed. Pages with thousands of links ask this of
 * each one, several times.
 */
export function hasOrigin(url: string, origin: string): boolean {
  if (url.startsWith(origin) && url.charCodeAt(origin.length) === 0x2f) return true;
  return url.includes('@') && URL.parse(url)?.origin === origin;
}
