import type { PageLab } from '@loupe/contract';
import type { AccessibilityViolation } from '../rendering/accessibility-check.ts';
import type { PageFacts } from './page-facts.ts';

// The crawler builds these and the page checks read them: kept with the facts, neither imports the other.

/** One crawled internal URL as the page checks see it, right after it was fetched. */
export interface AuditedPage {
  /** The URL crawled (normalized). */
  url: string;
  /** Where a redirect points (its Location, resolved); the URL itself otherwise. */
  finalUrl: string;
  /** The crawl's origin: links to it are internal. */
  origin: string;
  /** Null when no response arrived (`fetchError` says why). */
  status: number | null;
  /** 'timeout', 'blocked-address', 'network: …', 'truncated', …; null on a complete response. */
  fetchError: string | null;
  contentType: string | null;
  /** Response headers, names lower-cased, repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Body bytes as transferred (compressed when Content-Encoding is set). */
  bytes: number;
  /** Time to the response headers, and to the end of the body. */
  ttfbMs: number;
  responseMs: number;
  /** Clicks from the start URL. */
  depth: number;
  /**
   * Facts of a 2xx HTML page; null for every other answer. When the crawl rendered the page,
   * they are the rendered DOM's (the raw HTML's are in `rendering`), so every page rule reads
   * what a browser showed.
   */
  facts: PageFacts | null;
  /** Present when a rendering crawl loaded the page in the browser (a 2xx HTML answer). */
  rendering?: PageRendering;
  /** What the crawl knows beyond this response; absent where a page is checked on its own. */
  context?: CrawlContext;
}

/** What a crawl learnt about the site that a check of one of its pages may compare with. */
export interface CrawlContext {
  /**
   * The site's answer to a path that cannot exist, when it was a 2xx HTML page with words
   * (`status/soft-404`: a page with the same text is the site's error page); null otherwise.
   */
  notFoundProbe: { url: string; textHash: string } | null;
  /**
   * The search engines' robots.txt groups (`*`, Googlebot) that disallow this URL; empty
   * when none does or robots.txt gave no rules (`indexability/noindex-unseen`).
   */
  robotsDisallowedFor: string[];
}

/** What a browser made of a page, beside its raw HTML (issue #28). */
export interface PageRendering {
  /** Facts of the HTML as fetched: `indexability/js-only-content` compares them with `facts`. */
  rawFacts: PageFacts;
  /** Whether `facts` are the rendered DOM's; false when rendering failed and they are the raw HTML's. */
  rendered: boolean;
  lab: PageLab;
  /** axe-core's violations; null when the check did not run or the page failed first. */
  accessibility: AccessibilityViolation[] | null;
}
