import type { LinkRefFact, PageFacts } from './page-facts.ts';
import { normalizeUrl } from './url-normalizer.ts';

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
