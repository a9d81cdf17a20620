import type { LinkFact, PageFacts } from '../../page-facts/page-facts.ts';
import type { AuditedPage } from '../rule.ts';
import { hasOrigin } from './same-origin.ts';

/**
 * Links to other pages of the site; a bare `#section` or a link to the page itself is not one.
 * Internal means the crawl's origin: scheme, host and port (the crawler's own test).
 */
export function internalLinks(facts: PageFacts, page: AuditedPage): LinkFact[] {
  const site = URL.parse(page.origin)?.origin;
  if (site === undefined) return [];
  // Several rules ask, one after the other.
  const known = internalByFacts.get(facts);
  if (known?.site === site) return known.links;
  const links = facts.links.filter((link) => link.url !== null && !link.samePage && hasOrigin(link.url, site));
  internalByFacts.set(facts, { site, links });
  return links;
}
const internalByFacts = new WeakMap<PageFacts, { site: string; links: LinkFact[] }>();
