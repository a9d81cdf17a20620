import { ImageDecodeError } from './image-decode-error.ts';

/**
 * SVG is a document, not just pixels: it can carry scripts, event handlers, entity
 * expansion and references to other files or URLs. We rasterise SVG with librsvg (no
 * scripts run) and, to be safe on every path, refuse at upload any SVG with these
 * features rather than try to rewrite it. Fragment (`#id`) and `data:` references stay allowed.
 */
const forbidden: { pattern: RegExp; why: string }[] = [
  { pattern: /<!DOCTYPE|<!ENTITY/i, why: 'a DOCTYPE or entity declaration' },
  { pattern: /<script[\s>/]/i, why: 'a script' },
  { pattern: /<foreignObject[\s>/]/i, why: 'a foreignObject' },
  { pattern: /\son[a-z]+\s*=/i, why: 'an event handler attribute' },
  { pattern: /(?:xlink:)?href\s*=\s*["']\s*(?!#|data:)[^"']/i, why: 'a reference to another file or address' },
  { pattern: /url\(\s*["']?\s*(?!#|data:)[^)"'\s]/i, why: 'a url() reference to another file or address' },
  { pattern: /@import/i, why: 'a CSS @import' },
];

export function assertSafeSvg(svg: Buffer): void {
  const text = svg.toString('utf8');
  for (const { pattern, why } of forbidden) {
    if (pattern.test(text)) throw new ImageDecodeError('unsupported', `SVG files with ${why} are not accepted.`);
  }
}
