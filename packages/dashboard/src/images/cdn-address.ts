import { canonicalQuery, encodeImagePath, rfc3986Encode, type TransformName, type Transforms, transformShortNames } from '@loupe/contract';

/** A CDN query by the CDN's own names (DESIGN.md §7): `t` for the preset, `w` for width, long names for the rest. */
export function cdnParams(options: { preset?: string; transforms?: Partial<Transforms> }): Record<string, string> {
  const params: Record<string, string> = {};
  if (options.preset) params.t = options.preset;
  for (const [name, value] of Object.entries(options.transforms ?? {})) {
    if (value === undefined) continue;
    params[transformShortNames[name as TransformName] ?? name] = String(value);
  }
  return params;
}

/**
 * `/cdn/<slug>/<path>?<query>` on the dashboard's own origin: the server that serves the
 * dashboard is the CDN, whatever LOUPE_PUBLIC_URL says (a tunnel, a proxy, a test port).
 * The query is in the signed order, as the SDK's cdnUrl writes it.
 */
export function localCdnUrl(slug: string, path: string, params: Record<string, string>): string {
  const query = canonicalQuery(params);
  return `/cdn/${rfc3986Encode(slug)}/${encodeImagePath(path)}${query ? `?${query}` : ''}`;
}

/** An absolute CDN URL of the API (an image's `url`, signUrl's answer) as a path on this origin. */
export function onThisOrigin(url: string): string {
  const at = url.indexOf('/cdn/');
  return at === -1 ? url : url.slice(at);
}

/** The public origin the server writes into CDN URLs (LOUPE_PUBLIC_URL), read from an image's `url`. */
export function publicBaseOf(imageUrl: string): string {
  const at = imageUrl.indexOf('/cdn/');
  return at === -1 ? window.location.origin : imageUrl.slice(0, at);
}
