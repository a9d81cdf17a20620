import type { PageRule } from '../rule.ts';
import { htmlCheck, rawHtmlCheck } from './html-check.ts';
import { noindexReasons } from './indexable.ts';
import { jsOnlyContentRule } from './js-only-content.ts';
import { verdict } from './verdict.ts';

export const indexabilityRules: readonly PageRule[] = [
  {
    id: 'indexability/noindex',
    category: 'indexability',
    severity: 'warning',
    scope: 'page',
    title: 'Page asks search engines not to index it',
    explanation:
      'A robots directive (noindex, none, or an unavailable_after date that has passed) keeps this page out of search results. That is right for private or duplicate pages, and a costly mistake anywhere else.',
    fix: 'If the page should be found in search, remove noindex or none from the meta robots tag and the X-Robots-Tag header, and drop or extend the unavailable_after date.',
    check: htmlCheck((facts, page) => {
      const reasons = noindexReasons(page, facts);
      return verdict(reasons, { detail: reasons.join('; ') });
    }),
  },
  {
    id: 'indexability/nosnippet',
    category: 'indexability',
    severity: 'notice',
    scope: 'page',
    title: 'Page forbids search snippets',
    explanation:
      'With nosnippet or max-snippet:0, search engines show the page without a text preview under its title. Results without a description get fewer clicks.',
    fix: 'Remove nosnippet and max-snippet:0 from the robots meta tag and X-Robots-Tag header, or use data-nosnippet on just the passages you want to hide.',
    check: htmlCheck((facts) => {
      const robots = facts.robots.combined;
      const found: string[] = [];
      if (robots.nosnippet) found.push('nosnippet');
      if (robots.maxSnippet === 0) found.push('max-snippet:0');
      return verdict(found, { detail: found.join(', ') });
    }),
  },
  {
    id: 'indexability/meta-in-body',
    category: 'indexability',
    severity: 'warning',
    scope: 'page',
    title: '<meta> tags outside the head',
    explanation:
      'Search engines stop reading head tags where the head ends, so a robots, description or other meta tag placed in the body may be ignored. Often an element that is not allowed in the head (an image, a div, stray text) ended the head early.',
    fix: 'Move every <meta> tag into the <head>, and make sure nothing but head elements comes before them.',
    check: rawHtmlCheck((facts) =>
      verdict(facts.metaInBody.instances, { count: facts.metaInBody.count, detail: `${facts.metaInBody.count} in the body` }),
    ),
  },
  jsOnlyContentRule,
];
