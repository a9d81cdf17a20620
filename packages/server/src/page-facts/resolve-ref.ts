import { PAGE_FACT_CAPS } from './page-fact-caps.ts';

/** Where an href or src points, after resolution against the document's base URL. */
export interface ResolvedRef {
  /**
   * The absolute URL with its fragment removed, for http(s) targets only. `mailto:`,
   * `javascript:`, `tel:`, `data:` and other schemes stay null: they are not pages to fetch
   * or link-graph edges, and the checks that care (`links/uncrawlable`, link text) read
   * `scheme` and the raw href instead. Also null for an href longer than
   * PAGE_FACT_CAPS.resolvableHrefChars (its scheme is still given).
   */
  url: string | null;
  /** The scheme without its colon ('https', 'mailto', 'javascript', …); null when the href does not parse. */
  scheme: string | null;
  /** True when the target is the page itself: an empty href, a bare fragment, or the page's own URL. */
  samePage: boolean;
}

const UNPARSABLE: ResolvedRef = { url: null, scheme: null, samePage: false };

/**
 * Resolves `raw` the way a browser would (the WHATWG URL parser strips surrounding
 * whitespace and embedded tabs and newlines itself). `pageUrl` must have no fragment.
 * No other normalization happens here: dropping tracking parameters and the like is the
 * frontier's business, and a check may want the URL as the page wrote it.
 */
export function resolveRef(raw: string, base: URL | null, pageUrl: string): ResolvedRef {
  if (raw.length > PAGE_FACT_CAPS.resolvableHrefChars) {
    const scheme =
      /^[\s\x00-\x1f]*([a-z][a-z\d+.-]*):/i.exec(raw)?.[1]?.toLowerCase() ?? (base === null ? null : base.protocol.slice(0, -1));
    return { url: null, scheme, samePage: false };
  }
  const target = URL.parse(raw, base ?? undefined);
  if (target === null) return UNPARSABLE;
  const scheme = target.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return { url: null, scheme, samePage: false };
  target.hash = '';
  const url = target.href;
  return { url, scheme, samePage: url === pageUrl };
}
