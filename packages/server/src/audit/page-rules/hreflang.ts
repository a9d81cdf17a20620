import type { HreflangFact, PageFacts } from '../../page-facts/page-facts.ts';
import type { PageRule } from '../rule.ts';
import { isHreflangCode } from './hreflang-code.ts';
import { htmlCheck } from './html-check.ts';
import { sameUrl } from './indexable.ts';
import { verdict } from './verdict.ts';

/** Alternates search engines read: head links and the Link header (body ones are ignored). */
function alternates(facts: PageFacts): HreflangFact[] {
  return facts.hreflangs.filter((alternate) => alternate.inHead);
}

function describe(alternate: HreflangFact): string {
  return `${alternate.lang} → ${alternate.href}`;
}

export const hreflangRules: readonly PageRule[] = [
  {
    id: 'hreflang/invalid-code',
    category: 'hreflang',
    severity: 'error',
    scope: 'page',
    title: 'hreflang uses an invalid language or region code',
    explanation:
      'Search engines ignore an hreflang annotation whose code they do not recognise, so visitors may be shown the wrong language version. Common slips are en-UK (the code for the United Kingdom is GB) and three-letter codes such as eng.',
    fix: 'Use a two-letter ISO 639-1 language code, optionally followed by a two-letter ISO 3166-1 country code (en, en-GB, pt-BR), or x-default.',
    check: htmlCheck((facts) => {
      const invalid = alternates(facts).filter((alternate) => !isHreflangCode(alternate.lang));
      return verdict(invalid.map(describe), { detail: [...new Set(invalid.map((alternate) => alternate.lang))].join(', ') });
    }),
  },
  {
    id: 'hreflang/relative-url',
    category: 'hreflang',
    severity: 'warning',
    scope: 'page',
    title: 'hreflang link is not an absolute URL',
    explanation:
      'Google requires each hreflang alternate to be a full URL including https://. Relative or malformed addresses can be ignored, breaking the link between language versions.',
    fix: 'Write every hreflang href as an absolute URL, for example https://www.example.com/de/page.',
    check: htmlCheck((facts) => {
      const relative = alternates(facts).filter((alternate) => !alternate.absolute || alternate.url === null);
      return verdict(relative.map(describe));
    }),
  },
  {
    id: 'hreflang/missing-self',
    category: 'hreflang',
    severity: 'warning',
    scope: 'page',
    title: 'hreflang set does not include the page itself',
    explanation:
      'Each page in a group of language versions must list itself as well as the others. Without the self-reference, search engines may not trust the annotations.',
    fix: "Add an hreflang link for this page's own language pointing to its own URL, alongside the links to the other versions.",
    check: htmlCheck((facts) => {
      const set = alternates(facts);
      if (set.length === 0) return null;
      const listsItself = set.some((alternate) => alternate.url !== null && sameUrl(alternate.url, facts.url));
      return listsItself ? null : verdict([facts.url], { detail: `none of ${set.length} alternates points to this page` });
    }),
  },
  {
    id: 'hreflang/missing-x-default',
    category: 'hreflang',
    severity: 'notice',
    scope: 'page',
    title: 'hreflang set has no x-default',
    explanation:
      'x-default names the page to show people whose language matches none of your versions, such as a language picker or the international home page. Without it, search engines choose for them.',
    fix: 'Add <link rel="alternate" hreflang="x-default" href="…"> pointing to your fallback or language-selection page.',
    check: htmlCheck((facts) => {
      const set = alternates(facts);
      if (set.length === 0 || set.some((alternate) => alternate.lang.toLowerCase() === 'x-default')) return null;
      return verdict([facts.url]);
    }),
  },
];
