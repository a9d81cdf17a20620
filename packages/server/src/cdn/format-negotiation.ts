import type { OutputFormat } from '../transform/transform-pipeline.ts';

/** Modern formats in order of preference (DESIGN.md §7): smaller files first. */
const PREFERENCE: OutputFormat[] = ['jxl', 'avif', 'webp'];

/** The media types an `Accept` header lists by name with q > 0. Wildcards do not count. */
function explicitlyAccepted(accept: string): Set<string> {
  const types = new Set<string>();
  for (const entry of accept.split(',')) {
    const [type = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    if (type.includes('*') || (q !== undefined && !(Number(q.slice(2)) > 0))) continue;
    types.add(type);
  }
  return types;
}

/**
 * `format=auto`: the best modern format the client names explicitly, among those that animate
 * when the output is an animation. `*\/*` is not taken as
 * a promise to decode JPEG XL or AVIF — browsers send it for images too — so a client that
 * names none of them gets JPEG, or PNG when the picture needs transparency.
 */
export function negotiateFormat(accept: string | undefined, needsAlpha: boolean, animated = false): OutputFormat {
  const accepted = explicitlyAccepted(accept ?? '');
  // An animation stays one: WebP where the client names it, else GIF, which every client shows.
  if (animated) return accepted.has('image/webp') ? 'webp' : 'gif';
  return PREFERENCE.find((format) => accepted.has(`image/${format}`)) ?? (needsAlpha ? 'png' : 'jpeg');
}
