import type { AuditedPage, PageRule } from '../rule.ts';
import { htmlCheck, rawHtmlCheck } from './html-check.ts';
import { byteSize, quantity, verdict } from './verdict.ts';

const KIB = 1024;
const MIB = 1024 * KIB;
/** audit-checks.md §1 thresholds. */
const SLOW_TTFB_MS = 800;
const LARGE_HTML_BYTES = MIB;
/** Googlebot reads about the first 2 MB of an HTML file; past that the page is cut off. */
const HUGE_HTML_BYTES = 2 * MIB;
/** Below this, compression saves less than its overhead costs. */
const COMPRESSIBLE_BYTES = 4 * KIB;
const MAX_ELEMENTS = 1_500;
const TOO_MANY_ELEMENTS = 3_000;
const MAX_DEPTH = 32;
const MAX_CHILDREN = 60;
/** HTML, CSS, JavaScript, JSON and SVG/XML: text that compresses well. */
const TEXT_TYPE = /^(?:text\/|application\/(?:javascript|ecmascript|json|xml|xhtml\+xml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;
const COMPRESSIONS = new Set(['gzip', 'x-gzip', 'br', 'zstd', 'deflate']);

function isCompressed(page: AuditedPage): boolean {
  const encodings = (page.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim());
  return encodings.some((encoding) => COMPRESSIONS.has(encoding));
}

export const performanceRules: readonly PageRule[] = [
  {
    id: 'performance/slow-ttfb',
    category: 'performance',
    severity: 'warning',
    scope: 'page',
    title: 'Server is slow to respond',
    explanation:
      'The server took more than 800 ms to start answering. Nothing can appear on screen before that first byte arrives, so every visitor waits, and search engines crawl slow sites less.',
    fix: 'Cache rendered pages (or put a CDN in front), and look for slow database queries or external calls made while building the page.',
    check: (page) =>
      page.status !== null && page.ttfbMs > SLOW_TTFB_MS
        ? verdict([page.url], { detail: `${Math.round(page.ttfbMs)} ms to first byte` })
        : null,
  },
  {
    id: 'performance/large-html',
    category: 'performance',
    severity: 'warning',
    scope: 'page',
    title: 'HTML is very large',
    explanation:
      'More than 1 MiB of HTML takes long to download and parse, especially on phones. Googlebot stops reading an HTML file after about 2 MB, so content past that point is not indexed.',
    fix: 'Move inline scripts, styles and embedded data (base64 images, large JSON) into separate cached files, and paginate very long lists.',
    check: rawHtmlCheck((facts, page) => {
      const bytes = facts.htmlBytes;
      if (bytes <= LARGE_HTML_BYTES) return null;
      return verdict([page.url], { detail: byteSize(bytes), severity: bytes > HUGE_HTML_BYTES ? 'error' : undefined });
    }),
  },
  {
    id: 'performance/uncompressed',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Text response is not compressed',
    explanation:
      'HTML, CSS, JavaScript and similar text shrink to a fraction of their size with gzip, Brotli or Zstandard. Sending them uncompressed makes every visitor download several times more data.',
    fix: 'Turn on gzip or Brotli compression for text content types in your web server, CDN or hosting settings.',
    check: (page) => {
      if (page.status === null || page.status < 200 || page.status > 299) return null;
      if (page.contentType === null || !TEXT_TYPE.test(page.contentType.trim()) || isCompressed(page)) return null;
      // A body may arrive cut short; the decoded HTML as sent, when larger, is the better measure.
      const bytes = Math.max(page.bytes, (page.rendering?.rawFacts ?? page.facts)?.htmlBytes ?? 0);
      return bytes > COMPRESSIBLE_BYTES ? verdict([page.url], { detail: `${byteSize(bytes)} sent uncompressed` }) : null;
    },
  },
  {
    id: 'performance/dom-size',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Page has a very large or deep DOM',
    explanation:
      'Every element costs memory and makes style and layout work slower, so a page with thousands of elements or very deep nesting feels sluggish on phones. It usually comes from repeated hidden markup or deeply wrapped components.',
    fix: 'Render long lists on demand or paginate them, remove hidden duplicate markup (one menu for mobile and desktop), and flatten needless wrapper elements.',
    check: htmlCheck((facts) => {
      const { elementCount, maxDepth, maxChildren } = facts.dom;
      const excess: string[] = [];
      if (elementCount > MAX_ELEMENTS) excess.push(quantity(elementCount, 'element'));
      if (maxDepth > MAX_DEPTH) excess.push(`nested ${maxDepth} deep`);
      if (maxChildren > MAX_CHILDREN) excess.push(`an element with ${maxChildren} children`);
      if (excess.length === 0) return null;
      return verdict(excess, { count: 1, detail: excess.join(', '), severity: elementCount > TOO_MANY_ELEMENTS ? 'warning' : undefined });
    }),
  },
];
