/**
 * "Indexable" as audit-checks.md §0 defines it for one page: an HTML page with no noindex
 * (meta robots, meta googlebot or X-Robots-Tag) whose canonical is absent or points to
 * itself. The robots.txt part of §0 needs the site and is decided elsewhere; a page that was
 * fetched was not disallowed.
 */
import { effectiveCanonical } from '../../page-facts/effective-canonical.ts';
import type { PageFacts } from '../../page-facts/page-facts.ts';
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
