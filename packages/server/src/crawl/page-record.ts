import type { AuditedPage, CrawlContext } from '../page-facts/audited-page.ts';
import { effectiveCanonical } from '../page-facts/effective-canonical.ts';
import { extractPageFacts, type PageFacts } from '../page-facts/page-facts.ts';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';
import type { RenderedPage } from '../rendering/page-renderer.ts';
import type { CrawlOptions } from './crawl-options.ts';
import {
  ANCHOR_CHARS,
  type CrawlUrlRow,
  type DiscoveredUrl,
  type HreflangAnnotation,
  MORE_ANCHORS,
  type PageLink,
  REL_BITS,
  type RecordedPage,
  urlKey,
} from './frontier-store.ts';
import type { FetchedPage } from './page-fetcher.ts';
import type { PageHandler } from './page-handler.ts';
import { renderedRecord, withRawOnlyTargets } from './rendered-page-record.ts';
import type { ScopeFilter, ScopeVerdict } from './scope-filter.ts';

/** Response headers kept with a page: what the checks and the page detail read. */
const KEPT_HEADERS = [
  'content-type',
  'content-encoding',
  'content-length',
  'cache-control',
  'location',
  'link',
  'x-robots-tag',
  'strict-transport-security',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
];

/**
 * Turns one fetched URL into what the crawl keeps of it: what `onPage` makes of the page
 * while it is in memory, the links and the compressed markup and text (for rule packs and
 * search); the facts are dropped.
 */
export function recordFetchedPage(
  row: CrawlUrlRow,
  fetched: FetchedPage,
  options: CrawlOptions,
  inScope: ScopeFilter,
  onPage: PageHandler,
  context?: CrawlContext,
  rendered?: { page: RenderedPage; maxChars: number },
): RecordedPage {
  const origin = new URL(options.url).origin;
  const rawFacts =
    fetched.html !== null && fetched.status !== null && fetched.status >= 200 && fetched.status < 300
      ? extractPageFacts(fetched.html, fetched.finalUrl, fetched.headers)
      : null;
  const render = rendered && rawFacts ? renderedRecord(rendered.page, rawFacts, fetched, rendered.maxChars) : null;
  const facts = render?.facts ?? rawFacts;
  const page: AuditedPage = {
    url: row.url,
    finalUrl: fetched.finalUrl,
    origin,
    status: fetched.status,
    fetchError: fetched.error ?? (fetched.truncated ? 'truncated' : null),
    contentType: fetched.contentType,
    headers: fetched.headers,
    bytes: fetched.bytes,
    ttfbMs: fetched.ttfbMs,
    responseMs: fetched.responseMs,
    depth: row.depth,
    facts,
    ...(context ? { context } : {}),
    ...(render ? { rendering: render.rendering } : {}),
  };
  const handled = onPage(page);
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) if (fetched.headers[name] !== undefined) kept[name] = fetched.headers[name];

  return {
    result: {
      status_code: fetched.status,
      final_url: fetched.finalUrl,
      content_type: fetched.contentType,
      bytes: fetched.bytes,
      ttfb_ms: fetched.ttfbMs,
      response_ms: fetched.responseMs,
      redirects: fetched.redirects.length > 0 ? JSON.stringify(fetched.redirects) : null,
      fetch_error: page.fetchError,
      headers: JSON.stringify(kept),
      ...handled.result,
      fetched_at: new Date().toISOString(),
    },
    findings: handled.findings,
    ...linksAndDiscoveries(
      row,
      fetched,
      render?.rendering.rendered ? withRawOnlyTargets(render.facts, render.rendering.rawFacts) : facts,
      options,
      inScope,
      rawFacts,
    ),
    hreflangs: facts ? hreflangAnnotations(row, facts) : [],
    // The raw markup is what the site served; the text, what a reader sees (rendered, when it was).
    body: fetched.html === null ? null : { html: fetched.html, text: facts?.text.text ?? '' },
    ...(render ? { render: render.render } : {}),
  };
}

function linksAndDiscoveries(
  row: CrawlUrlRow,
  fetched: FetchedPage,
  facts: PageFacts | null,
  options: CrawlOptions,
  inScope: ScopeFilter,
  rawFacts: PageFacts | null,
): { links: PageLink[]; discovered: DiscoveredUrl[] } {
  const site = options.mode === 'site';
  const redirected = fetched.status !== null && fetched.status >= 300 && fetched.status < 400;
  if (redirected && fetched.error === null && site) {
    const target = normalizeUrl(fetched.finalUrl);
    const verdict = target === null ? null : inScope(target, row.depth);
    if (verdict === 'ok' || verdict === 'external') {
      return {
        links: [],
        discovered: [{ url: target as string, depth: row.depth, kind: verdict === 'ok' ? 'page' : 'external', source: 'redirect' }],
      };
    }
  }
  if (!facts) return { links: [], discovered: [] };

  const targets = new PageTargets(inScope, row.depth + 1);
  // A nofollow in either the raw or the rendered robots meta holds: a crawler may read either.
  const nofollow = (robots: PageFacts['robots']) => robots.combined.nofollow || robots.combined.none;
  const followsLinks = site && !nofollow(facts.robots) && !(rawFacts && nofollow(rawFacts.robots));
  for (const link of facts.links) {
    const url = link.url ? frontierUrl(link.url) : null;
    // A link to the page itself says nothing about the site's structure.
    if (!url || url === row.url) continue;
    const target = targets.link(url, 'link', { anchor: clipped(link.text), element: 'a', rel: relBits(link.rel) });
    if (!followsLinks || link.rel.includes('nofollow')) continue;
    const verdict = targets.verdict(target);
    if (verdict === 'ok' || verdict === 'external') targets.discover(target, verdict === 'ok' ? 'page' : 'external', 'link');
  }
  for (const image of facts.images) {
    const url = image.url ? frontierUrl(image.url) : null;
    if (url) targets.discover(targets.link(url, 'image', { anchor: clipped(image.alt), element: 'img', rel: 0 }), 'asset', 'image');
  }
  // Scripts and stylesheets are checked as images are: the site's own always, another
  // site's with its links (checkExternalLinks).
  const resources = [
    ...facts.scripts.filter((script) => script.kind !== 'data').map((script) => ({ url: script.url, element: 'script' as const })),
    ...facts.stylesheets.map((sheet) => ({ url: sheet.url, element: 'link' as const })),
  ];
  for (const resource of resources) {
    const url = resource.url ? frontierUrl(resource.url) : null;
    if (!url || url === row.url) continue;
    const target = targets.link(url, 'resource', { anchor: null, element: resource.element, rel: 0 });
    targets.discover(target, targets.verdict(target) === 'external' ? 'external' : 'asset', 'resource');
  }
  // Canonical and hreflang targets are crawled too (when in scope), so their checks can
  // tell whether they answer and are indexable.
  const canonical = effectiveCanonical(facts);
  const alternates = [
    ...(canonical === null ? [] : [{ url: canonical, kind: 'canonical' as const }]),
    ...facts.hreflangs.map((ref) => ({ url: ref.url ? normalizeUrl(ref.url) : null, kind: 'hreflang' as const })),
  ];
  for (const { url, kind } of alternates) {
    if (!url || url === row.url) continue;
    const target = targets.link(url, kind, { anchor: null, element: 'link', rel: 0 });
    if (site && targets.verdict(target) === 'ok') targets.discover(target, 'page', kind);
  }
  return { links: targets.keptLinks(), discovered: targets.discovered };
}

/** Anchor text or alt as kept with a link: at most ANCHOR_CHARS code points. */
function clipped(text: string | null): string | null {
  if (text === null || text.length <= ANCHOR_CHARS) return text;
  return Array.from(text).slice(0, ANCHOR_CHARS).join('');
}

/**
 * Counts one more occurrence of a link into its kept row: a new distinct anchor is kept (the
 * first non-empty one is `anchor`), and a rel flag stays set only when every occurrence has
 * it, since one followed occurrence passes link equity; partlyNofollow records a mix.
 */
function addOccurrence(link: PageLink, anchor: string | null, rel: number): void {
  link.occurrences++;
  if (anchor) {
    if (!link.anchor) link.anchor = anchor;
    else if (anchor !== link.anchor && link.moreAnchors.length < MORE_ANCHORS && !link.moreAnchors.includes(anchor))
      link.moreAnchors.push(anchor);
  }
  const mixed = (link.rel | rel) & REL_BITS.partlyNofollow || (link.rel ^ rel) & REL_BITS.nofollow;
  link.rel = (link.rel & rel & ~REL_BITS.partlyNofollow) | (mixed ? REL_BITS.partlyNofollow : 0);
}

const REL_TOKENS = ['nofollow', 'sponsored', 'ugc'] as const;

function relBits(rel: readonly string[]): number {
  let bits = 0;
  for (const token of REL_TOKENS) if (rel.includes(token)) bits |= REL_BITS[token];
  return bits;
}

interface Target {
  url: string;
  key: string;
  /** The links kept to it, one per kind (at most five). */
  links: PageLink[];
  verdict: ScopeVerdict | null;
  discovered: boolean;
}

/**
 * The URLs one page points at, each hashed and scoped once however often the page names it
 * (an index page, a menu repeated). Each distinct link (target and kind) is kept once, at its
 * first mention, counting its occurrences and their distinct anchors; each discovery once.
 */
class PageTargets {
  readonly #links: { link: PageLink; target: Target }[] = [];
  readonly discovered: DiscoveredUrl[] = [];
  readonly #targets = new Map<string, Target>();
  readonly #inScope: ScopeFilter;
  readonly #depth: number;

  /** `depth` is that of every URL the page links to. */
  constructor(inScope: ScopeFilter, depth: number) {
    this.#inScope = inScope;
    this.#depth = depth;
  }

  link(url: string, kind: PageLink['kind'], details: Pick<PageLink, 'anchor' | 'element' | 'rel'>): Target {
    let target = this.#targets.get(url);
    if (target === undefined) {
      target = { url, key: urlKey(url), links: [], verdict: null, discovered: false };
      this.#targets.set(url, target);
    }
    const known = target.links.find((link) => link.kind === kind);
    if (known) addOccurrence(known, details.anchor, details.rel);
    else {
      const link: PageLink = { targetKey: target.key, kind, ...details, moreAnchors: [], occurrences: 1, targetUrl: null };
      target.links.push(link);
      this.#links.push({ link, target });
    }
    return target;
  }

  /** The links, each naming its target's URL when this page did not queue it (the crawl may have no row for it). */
  keptLinks(): PageLink[] {
    return this.#links.map(({ link, target }) => (target.discovered ? link : { ...link, targetUrl: target.url }));
  }

  verdict(target: Target): ScopeVerdict {
    target.verdict ??= this.#inScope(target.url, this.#depth);
    return target.verdict;
  }

  discover(target: Target, kind: DiscoveredUrl['kind'], source: string): void {
    if (target.discovered) return;
    target.discovered = true;
    this.discovered.push({ url: target.url, depth: this.#depth, kind, source });
  }
}

/**
 * normalizeUrl of a URL the page facts resolved: already serialized, http(s), without
 * fragment, so parsing it again changes nothing unless a query may hold tracking parameters.
 */
function frontierUrl(resolved: string): string | null {
  return resolved.includes('?') ? normalizeUrl(resolved) : resolved;
}

/**
 * The page's hreflang annotations as search engines read them (head links and the Link
 * header), its reference to itself included: `hreflang/conflicting-codes` compares the
 * codes each URL is given across the site, and a page's own code with its `<html lang>`.
 */
function hreflangAnnotations(row: CrawlUrlRow, facts: PageFacts): HreflangAnnotation[] {
  const annotations = new Map<string, HreflangAnnotation>();
  for (const alternate of facts.hreflangs) {
    const url = alternate.inHead && alternate.url ? normalizeUrl(alternate.url) : null;
    const code = alternate.lang.trim().toLowerCase();
    if (url === null || code === '') continue;
    // A one-page audit may have followed redirects: the page is then its final URL.
    const targetKey = url === normalizeUrl(facts.url) ? row.url_key : urlKey(url);
    annotations.set(`${targetKey} ${code}`, { targetKey, code });
  }
  return [...annotations.values()];
}
