import type { PageFacts } from '../../page-facts/page-facts.ts';
import type { AuditedPage, Verdict } from '../rule.ts';

/**
 * Wraps a check that reads the page's HTML facts so it runs only on HTML pages (a 2xx HTML
 * answer, the only kind with facts). audit-checks.md §0 asks for one guard applied the same
 * way to every on-page check; SEOnaut's hand-written guards drifted and ran on error pages.
 */
export function htmlCheck(check: (facts: PageFacts, page: AuditedPage) => Verdict): (page: AuditedPage) => Verdict {
  return (page) => (page.facts === null ? null : check(page.facts, page));
}

/**
 * As `htmlCheck`, on the HTML as fetched: in a rendering crawl `facts` are the rendered DOM's,
 * but a check of the bytes sent (their size, where a tag stands in them) reads the raw ones.
 */
export function rawHtmlCheck(check: (facts: PageFacts, page: AuditedPage) => Verdict): (page: AuditedPage) => Verdict {
  return (page) => {
    const facts = page.facts === null ? null : (page.rendering?.rawFacts ?? page.facts);
    return facts === null ? null : check(facts, page);
  };
}
