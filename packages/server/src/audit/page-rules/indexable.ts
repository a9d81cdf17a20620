/**
 * "Indexable" as audit-checks.md §0 defines it for one page: an HTML page with no noindex
 * (meta robots, meta googlebot or X-Robots-Tag) whose canonical is absent or points to
 * itself. The robots.txt part of §0 needs the site and is decided elsewhere; a page that was
 * fetched was not disallowed.
 */
import type { LinkRefFact, PageFacts } from '../../page-facts/page-facts.ts';
import { normalizeUrl } from '../../page-facts/url-normalizer.ts';
import type { AuditedPage } from '../rule.ts';

export function isIndexable(page: AuditedPage): boolean {
  const facts = page.facts;
  if (facts === null) return false;
  if (noindexReasons(page, facts).length > 0) return false;
  const canonical = effectiveCanonical(facts);
  return canonical === null || sameUrl(canonical, facts.url);
}

/**
 * Why search engines will drop the page, one line per source: `meta robots: noindex`,
 * `X-Robots-Tag: none`, `unavailable_after: … (passed)`. Empty when nothing says so.
 */
export function noindexReasons(page: AuditedPage, facts: PageFacts): string[] {
  const reasons: string[] = [];
  const { meta, header, combined } = facts.robots;
  if (meta.noindex) reasons.push(`meta robots: ${meta.none ? 'none' : 'noindex'}`);
  if (header.noindex) reasons.push(`X-Robots-Tag: ${header.none ? 'none' : 'noindex'}`);
  const until = combined.unavailableAfter;
  if (until !== null) {
    const deadline = Date.parse(until);
    // Google ignores a date it cannot read, so an unreadable one restricts nothing.
    if (Number.isFinite(deadline) && deadline < fetchedAt(page)) reasons.push(`unavailable_after: ${until} (passed)`);
  }
  return reasons;
}

/**
 * Canonicals search engines read: `<link rel=canonical>` in the head and the Link header.
 * Google ignores one in the body, so the canonical checks do too.
 */
export function headCanonicals(facts: PageFacts): LinkRefFact[] {
  return facts.canonicals.filter((canonical) => canonical.inHead);
}

/**
 * The distinct targets of the head canonicals, normalized; a target that does not resolve
 * to an http(s) URL is kept as written, so two broken ones still count as two.
 */
export function canonicalTargets(facts: PageFacts): string[] {
  const targets = new Set<string>();
  for (const canonical of headCanonicals(facts)) {
    targets.add((canonical.url === null ? null : normalizeUrl(canonical.url)) ?? canonical.href.trim());
  }
  return [...targets];
}

/**
 * The canonical URL a search engine would act on: the one http(s) target of the head
 * canonicals. Null when there is none, or when they disagree (Google then ignores them all).
 */
export function effectiveCanonical(facts: PageFacts): string | null {
  const targets = canonicalTargets(facts);
  if (targets.length !== 1) return null;
  return normalizeUrl(targets[0] as string);
}

/** Same page after normalization (tracking parameters and fragments do not make a new page). */
export function sameUrl(a: string, b: string): boolean {
  const left = normalizeUrl(a);
  return left !== null && left === normalizeUrl(b);
}

/** When the response was produced: its Date header is the crawl's clock, kept with the page. */
function fetchedAt(page: AuditedPage): number {
  const date = page.headers.date === undefined ? Number.NaN : Date.parse(page.headers.date);
  return Number.isFinite(date) ? date : Date.now();
}
