import { mulberry32 } from './seeded-random.ts';
import { ORIGIN } from './test-site.ts';

/** A link in the page's navigation; a bare string gets a descriptive text derived from its path. */
export interface HtmlLink {
  href: string;
  text?: string;
  rel?: string;
}

/** An image; `alt`, `width` and `height` default to good values and `null` omits them. */
export interface HtmlImage {
  src: string;
  alt?: string | null;
  width?: number | null;
  height?: number | null;
}

/**
 * Every part of a page. Left out, a part takes the value that passes the catalog's page-scope
 * checks (audit-checks.md §1); `null` (or `false`) omits it, so a test can build the bad page.
 */
export interface HtmlPageOptions {
  /** The page's own path: gives the default canonical and og:url, and seeds the filler text. */
  path?: string;
  /** `''` writes an empty `<title>`; `null` writes none. */
  title?: string | null;
  description?: string | null;
  h1?: string | null;
  /** HTML of the main content after the h1; defaults to `words` words of seeded prose. */
  body?: string | null;
  words?: number;
  /** Seeds the default prose; defaults to `path`, then `title`. */
  seed?: string;
  links?: (string | HtmlLink)[];
  images?: HtmlImage[];
  canonical?: string | null;
  /** Content of `<meta name="robots">`, such as `noindex, follow`. */
  robots?: string | null;
  /** Language code → absolute URL, written as `<link rel="alternate" hreflang>`. */
  hreflang?: Record<string, string> | null;
  lang?: string | null;
  /** Objects are serialised; a string is written as is (for invalid JSON-LD). */
  jsonLd?: unknown;
  /** Merged over the default og:title, og:description, og:type, og:image and og:url; null removes one. */
  og?: Record<string, string | null> | null;
  twitterCard?: string | null;
  /** `true` writes `width=device-width, initial-scale=1`; a string is written as the content. */
  viewport?: boolean | string;
  charset?: boolean;
  extraHead?: string;
  extraBody?: string;
}

export const DEFAULT_TITLE = 'A well-formed page of the Loupe test site';
const DESCRIPTION_BASE = 'A page of the Loupe test site, written to pass every page-level audit check';

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** The default description follows the title, so pages with distinct titles get distinct descriptions (≤ 160 code points). */
export function defaultDescription(title: string | null | undefined): string {
  return title ? `${DESCRIPTION_BASE}: ${[...title].slice(0, 70).join('')}.` : `${DESCRIPTION_BASE}.`;
}

/** "Widgets and gadgets" for `/shop/widgets-and-gadgets`, "Home" for `/`. */
export function linkText(href: string): string {
  const path = href.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0];
  const last = path.split('/').filter(Boolean).at(-1);
  if (!last) return 'Home';
  const words = decodeURIComponent(last)
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : href;
}

export function htmlPage(options: HtmlPageOptions = {}): string {
  const title = options.title === undefined ? DEFAULT_TITLE : options.title;
  const description = options.description === undefined ? defaultDescription(title) : options.description;
  const h1 = options.h1 === undefined ? title || DEFAULT_TITLE : options.h1;
  const canonical = options.canonical === undefined ? (options.path === undefined ? null : ORIGIN + options.path) : options.canonical;
  const lang = options.lang === undefined ? 'en' : options.lang;
  const viewport = options.viewport ?? true;
  const seed = options.seed ?? options.path ?? title ?? '';
  const body = options.body === undefined ? fillerHtml(seed, options.words ?? 300) : options.body;
  const links = options.links ?? ['/'];

  const head: string[] = [];
  if (options.charset ?? true) head.push('<meta charset="utf-8">');
  if (viewport !== false) {
    const content = viewport === true ? 'width=device-width, initial-scale=1' : viewport;
    head.push(`<meta name="viewport" content="${escapeHtml(content)}">`);
  }
  if (title !== null) head.push(`<title>${escapeHtml(title)}</title>`);
  if (description !== null) head.push(`<meta name="description" content="${escapeHtml(description)}">`);
  if (options.robots != null) head.push(`<meta name="robots" content="${escapeHtml(options.robots)}">`);
  if (canonical !== null) head.push(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
  for (const [code, href] of Object.entries(options.hreflang ?? {})) {
    head.push(`<link rel="alternate" hreflang="${escapeHtml(code)}" href="${escapeHtml(href)}">`);
  }
  if (options.og !== null) {
    const og: Record<string, string | null> = {
      'og:title': title || null,
      'og:description': description,
      'og:type': 'website',
      'og:image': `${ORIGIN}/og-image.png`,
      'og:url': canonical,
      ...options.og,
    };
    for (const [property, content] of Object.entries(og)) {
      if (content !== null) head.push(`<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">`);
    }
  }
  const twitterCard = options.twitterCard === undefined ? 'summary_large_image' : options.twitterCard;
  if (twitterCard !== null) head.push(`<meta name="twitter:card" content="${escapeHtml(twitterCard)}">`);
  if (options.jsonLd != null) {
    const json = typeof options.jsonLd === 'string' ? options.jsonLd : JSON.stringify(options.jsonLd).replaceAll('<', '\\u003c');
    head.push(`<script type="application/ld+json">${json}</script>`);
  }
  if (options.extraHead) head.push(options.extraHead);

  const nav = links.map((link) => {
    const { href, text, rel } = typeof link === 'string' ? { href: link, text: undefined, rel: undefined } : link;
    const relAttribute = rel ? ` rel="${escapeHtml(rel)}"` : '';
    return `<li><a href="${escapeHtml(href)}"${relAttribute}>${escapeHtml(text ?? linkText(href))}</a></li>`;
  });
  const images = (options.images ?? []).map((image) => {
    const alt = image.alt === undefined ? `Illustration for ${linkText(image.src).toLowerCase()}` : image.alt;
    const width = image.width === undefined ? 640 : image.width;
    const height = image.height === undefined ? 480 : image.height;
    const attributes = [`src="${escapeHtml(image.src)}"`];
    if (alt !== null) attributes.push(`alt="${escapeHtml(alt)}"`);
    if (width !== null) attributes.push(`width="${width}"`);
    if (height !== null) attributes.push(`height="${height}"`);
    return `<p><img ${attributes.join(' ')}></p>`;
  });

  return [
    '<!doctype html>',
    lang === null ? '<html>' : `<html lang="${escapeHtml(lang)}">`,
    '<head>',
    ...head,
    '</head>',
    '<body>',
    `<header><nav aria-label="Site"><ul>${nav.join('')}</ul></nav></header>`,
    '<main>',
    ...(h1 === null ? [] : [`<h1>${escapeHtml(h1)}</h1>`]),
    ...(body === null ? [] : [body]),
    ...images,
    '</main>',
    '<footer><p>Loupe test site</p></footer>',
    ...(options.extraBody ? [options.extraBody] : []),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

// Real-looking but meaningless words: prose from different seeds shares few 3-word shingles,
// so default pages are neither duplicates nor near-duplicates of each other.
const WORDS = (
  'account address answer archive autumn balance basket beacon bridge bright budget button cabin calm canvas ' +
  'careful carpet castle ceiling channel clever climate closet cloud coastal collect comfort copper corner ' +
  'cotton county craft crystal curtain daily dancer delta desert detail diary distant dozen drawer early ' +
  'engine evening fabric factory fancy feather field finder forest fossil frame garden gentle ginger glass ' +
  'golden gravel habit harbour harvest hazel helpful hidden hollow honest island jacket journal kettle ' +
  'kitchen ladder lantern leather lemon library linen little lively lumber market meadow measure metal ' +
  'middle mirror modest morning mountain narrow native needle notice number ocean office orange orchard ' +
  'paddle painter pantry parcel pattern pebble pepper pillow pocket portrait powder quiet rabbit radio ' +
  'rapid record river rocket saddle salmon sample season shadow shelter silver simple single sketch ' +
  'soft spiral spring stable station steady stone summer supply table tailor teacher thunder timber ' +
  'travel tunnel useful valley velvet village violet wagon walnut window winter wooden yellow'
).split(' ');

/** A deterministic 32-bit generator (mulberry32) seeded by a string. */
export function seededRandom(seed: string): () => number {
  // The string is hashed (FNV-1a) into mulberry32's seed.
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  return mulberry32(state);
}

/** Exactly `count` words of sentence-shaped prose, the same for the same seed. */
export function prose(seed: string, count: number): string[] {
  const random = seededRandom(seed);
  const sentences: string[] = [];
  let sentence: string[] = [];
  let length = 8 + Math.floor(random() * 8);
  for (let i = 0; i < count; i++) {
    const word = WORDS[Math.floor(random() * WORDS.length)];
    sentence.push(sentence.length === 0 ? word[0].toUpperCase() + word.slice(1) : word);
    if (sentence.length === length || i === count - 1) {
      sentences.push(`${sentence.join(' ')}.`);
      sentence = [];
      length = 8 + Math.floor(random() * 8);
    }
  }
  return sentences;
}

/** Prose as paragraphs of about five sentences, with an `<h2>` every third paragraph. */
export function fillerHtml(seed: string, words: number): string {
  const sentences = prose(seed, words);
  const parts: string[] = [];
  for (let i = 0, paragraph = 0; i < sentences.length; i += 5, paragraph++) {
    if (paragraph > 0 && paragraph % 3 === 0) parts.push(`<h2>Section ${paragraph / 3 + 1}</h2>`);
    parts.push(`<p>${sentences.slice(i, i + 5).join(' ')}</p>`);
  }
  return parts.join('\n');
}
