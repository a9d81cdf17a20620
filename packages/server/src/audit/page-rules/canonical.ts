import { canonicalTargets, effectiveCanonical, headCanonicals } from '../../page-facts/effective-canonical.ts';
import type { LinkRefFact } from '../../page-facts/page-facts.ts';
import { normalizeUrl } from '../../page-facts/url-normalizer.ts';
import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { isIndexable, sameUrl } from './indexable.ts';
import { quantity, verdict } from './verdict.ts';

/** What is wrong with one canonical href, or null when it is a usable absolute URL. */
function canonicalProblem(canonical: LinkRefFact, pageIsHttps: boolean): string | null {
  if (canonical.href.trim() === '') return 'empty';
  if (canonical.url === null) return 'not an http(s) URL';
  if (!canonical.absolute) return 'relative';
  if (pageIsHttps && canonical.url.startsWith('http:')) return 'http:// on an https page';
  return null;
}

function describe(canonical: LinkRefFact): string {
  return canonical.href.trim() === '' ? `(empty ${canonical.source} canonical)` : canonical.href;
}

export const canonicalRules: readonly PageRule[] = [
  {
    id: 'canonical/missing',
    category: 'canonical',
    severity: 'notice',
    scope: 'page',
    title: 'Page has no canonical URL',
    explanation:
      "A canonical link tells search engines which address is the main one when the same page is reachable under several (with tracking parameters, with or without a slash). Without it, they guess, and may split the page's ranking between the copies.",
    fix: 'Add <link rel="canonical" href="…"> to the head with the page\'s own full https URL (a canonical in the body is ignored).',
    check: htmlCheck((facts, page) => (headCanonicals(facts).length === 0 && isIndexable(page) ? verdict([facts.url]) : null)),
  },
  {
    id: 'canonical/multiple',
    category: 'canonical',
    severity: 'error',
    scope: 'page',
    title: 'Page declares conflicting canonical URLs',
    explanation:
      'The page names more than one canonical URL across its head and its Link header. When they disagree, Google ignores all of them, so the page is treated as if it had none.',
    fix: 'Declare one canonical URL: remove the extra <link rel="canonical"> tags, and make the Link header (if any) give the same URL.',
    check: htmlCheck((facts) => {
      const targets = canonicalTargets(facts);
      return targets.length < 2 ? null : verdict(targets, { detail: quantity(targets.length, 'different canonical URL') });
    }),
  },
  {
    id: 'canonical/invalid',
    category: 'canonical',
    severity: 'warning',
    scope: 'page',
    title: 'Canonical URL is invalid',
    explanation:
      'The canonical is empty, not a web address, relative, or points to http:// from an https page. Search engines may ignore it or resolve it to the wrong page.',
    fix: 'Use an absolute URL with the same scheme as the page, for example https://www.example.com/page.',
    check: htmlCheck((facts) => {
      const pageIsHttps = facts.url.startsWith('https:');
      const invalid: string[] = [];
      const problems = new Set<string>();
      for (const canonical of headCanonicals(facts)) {
        const problem = canonicalProblem(canonical, pageIsHttps);
        if (problem === null) continue;
        invalid.push(describe(canonical));
        problems.add(problem);
      }
      return verdict(invalid, { detail: [...problems].join(', ') });
    }),
  },
  {
    id: 'canonical/header-mismatch',
    category: 'canonical',
    severity: 'warning',
    scope: 'page',
    title: 'Link header and HTML name different canonicals',
    explanation:
      'The HTTP Link header and the <link rel="canonical"> in the HTML point to different URLs. Search engines cannot tell which one you mean and may ignore both.',
    fix: "Make the server's Link header and the page's canonical tag name the same URL, or keep only one of them.",
    check: htmlCheck((facts) => {
      const canonicals = headCanonicals(facts);
      const fromHeader = canonicals.filter((canonical) => canonical.source === 'header');
      const fromHtml = canonicals.filter((canonical) => canonical.source === 'html');
      if (fromHeader.length === 0 || fromHtml.length === 0) return null;
      const agree = fromHeader.every((header) => fromHtml.every((html) => sameTarget(header, html)));
      if (agree) return null;
      return verdict([`header: ${describe(fromHeader[0] as LinkRefFact)}`, `html: ${describe(fromHtml[0] as LinkRefFact)}`], { count: 1 });
    }),
  },
  {
    id: 'canonical/to-homepage',
    category: 'canonical',
    severity: 'warning',
    scope: 'page',
    title: 'Canonical points to the home page',
    explanation:
      'This inner page names the home page as its canonical, telling search engines it is a copy of the home page. They may then drop it from results entirely.',
    fix: "Point the canonical at the page's own URL; this is usually a template that writes the site root into every page.",
    check: htmlCheck((facts) => {
      const canonical = effectiveCanonical(facts);
      const target = canonical === null ? null : URL.parse(canonical);
      const self = URL.parse(facts.url);
      if (target === null || self === null) return null;
      // Lighthouse's rule: the root path on the page's own origin, from any other path.
      const toRoot = target.origin === self.origin && target.pathname === '/' && self.pathname !== '/';
      return toRoot ? verdict([target.href]) : null;
    }),
  },
  {
    id: 'canonical/canonicalised',
    category: 'canonical',
    severity: 'notice',
    // An intentional alternate (a sorted listing, a print view) is fine: informational only.
    weight: 0,
    scope: 'page',
    title: 'Page names another URL as canonical',
    explanation:
      'This page says another URL is the main version, so search engines will show that one instead. That is intended for duplicates and variants, and a problem if this page should rank on its own.',
    fix: "Nothing to do if this page is a variant. Otherwise, point the canonical at the page's own URL.",
    check: htmlCheck((facts) => {
      const canonical = effectiveCanonical(facts);
      return canonical === null || sameUrl(canonical, facts.url) ? null : verdict([canonical], { detail: `canonical: ${canonical}` });
    }),
  },
];

function sameTarget(a: LinkRefFact, b: LinkRefFact): boolean {
  if (a.url === null || b.url === null) return a.href.trim() === b.href.trim();
  return normalizeUrl(a.url) === normalizeUrl(b.url);
}
