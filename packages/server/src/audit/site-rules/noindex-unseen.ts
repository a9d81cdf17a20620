import { applyXRobotsTag, noRobotsDirectives } from '../../page-facts/robots-directives.ts';
import { keptInstances } from '../finding-instances.ts';
import { noindexReasons } from '../page-rules/indexable.ts';
import type { AuditedPage, Finding } from '../rule.ts';

/**
 * `indexability/noindex-unseen` (squirrelscan's `crawl/robots-meta-conflict`): a URL that
 * robots.txt disallows for search engines and that also says noindex. Search engines never
 * fetch it, so they never read the noindex, and may still index the bare URL from links.
 *
 * A site-scope check (it needs the site's robots.txt), decided while the page is in memory.
 * Loupe only learns the noindex of URLs it fetched: in a crawl that ignores robots.txt, or
 * where robots.txt lets Loupe's own agent in while it keeps `*` or Googlebot out. A crawl
 * that obeys robots.txt never requests the other disallowed URLs, not even with HEAD.
 */
export function noindexUnseenFinding(page: AuditedPage): Finding | null {
  const agents = page.context?.robotsDisallowedFor ?? [];
  if (agents.length === 0 || page.status === null || page.status < 200 || page.status > 299) return null;
  const reasons = page.facts === null ? headerNoindex(page) : noindexReasons(page, page.facts);
  if (reasons.length === 0) return null;
  return {
    ruleId: 'indexability/noindex-unseen',
    count: 1,
    ...keptInstances(reasons),
    detail: `robots.txt disallows it for ${agents.map((agent) => (agent === '*' ? 'all crawlers (*)' : agent)).join(' and ')}`,
  };
}

/** A PDF or an image says noindex only in its X-Robots-Tag. */
function headerNoindex(page: AuditedPage): string[] {
  const value = page.headers['x-robots-tag'];
  if (value === undefined) return [];
  const directives = noRobotsDirectives();
  applyXRobotsTag(value, directives);
  return directives.noindex ? [`X-Robots-Tag: ${directives.none ? 'none' : 'noindex'}`] : [];
}
