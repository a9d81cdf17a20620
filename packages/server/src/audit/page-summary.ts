import { createHash } from 'node:crypto';
import { effectiveCanonical } from '../page-facts/effective-canonical.ts';
import type { PageFacts } from '../page-facts/page-facts.ts';
import { isIndexable } from './page-rules/indexable.ts';
import { hasOrigin } from './page-rules/same-origin.ts';
import type { AuditedPage } from './rule.ts';

/** What the page index and page detail show of an HTML page, kept after its facts are gone. */
export interface PageSummary {
  title: string | null;
  titleLength: number;
  description: string | null;
  descriptionLength: number;
  h1: string | null;
  h1Count: number;
  /** Words of the main content (`content/thin`'s count; `PageFacts.mainText`). */
  wordCount: number;
  /**
   * Where the main content sits in the page's kept visible text, as [start, end) stretches
   * (`mainTextOf` reads them); null when it is the whole text.
   */
  mainTextRanges: Array<[number, number]> | null;
  lang: string | null;
  /** The first canonical, resolved; null when the page has none. */
  canonical: string | null;
  noindex: boolean;
  indexable: boolean;
  linkCount: number;
  /** Links to the page's own origin and to others (of the links kept, see page-fact-caps.ts). */
  internalLinkCount: number;
  externalLinkCount: number;
  imageCount: number;
  htmlBytes: number;
}

/** The summary and the keys the site checks group by (duplicates are a GROUP BY on them). */
export interface SummarizedPage {
  summary: PageSummary;
  titleHash: string | null;
  descriptionHash: string | null;
  /** Of the main content; null for pages under 20 words of it, which `content/duplicate` ignores. */
  textHash: string | null;
  /** Of the main content; null for pages under 100 words of it, too short for a SimHash to mean much (`content/near-duplicate`). */
  simhash: string | null;
  lang: string | null;
  indexable: boolean;
}

/** Pages with fewer words than this are too short to call duplicates of each other. */
const MIN_WORDS_FOR_DUPLICATE = 20;
const MIN_WORDS_FOR_NEAR_DUPLICATE = 100;

export function summarizePage(page: AuditedPage & { facts: PageFacts }): SummarizedPage {
  const facts = page.facts;
  const indexable = isIndexable(page);
  const lang = facts.htmlLang ? facts.htmlLang.toLowerCase() : null;
  const main = facts.mainText;
  return {
    summary: {
      title: facts.title?.text ?? null,
      titleLength: facts.title?.length ?? 0,
      description: facts.description?.text ?? null,
      descriptionLength: facts.description?.length ?? 0,
      h1: facts.h1Texts[0] ?? null,
      h1Count: facts.h1Count,
      wordCount: main.wordCount,
      mainTextRanges: main.wordCount === facts.text.wordCount ? null : main.ranges,
      lang,
      canonical: effectiveCanonical(facts),
      noindex: facts.robots.combined.noindex || facts.robots.combined.none,
      indexable,
      linkCount: facts.linkCount,
      ...linkCounts(facts, page.finalUrl),
      imageCount: facts.imageCount,
      htmlBytes: facts.htmlBytes,
    },
    titleHash: textKey(facts.title?.text),
    descriptionHash: textKey(facts.description?.text),
    textHash: main.wordCount >= MIN_WORDS_FOR_DUPLICATE ? main.textHash : null,
    simhash: main.wordCount >= MIN_WORDS_FOR_NEAR_DUPLICATE ? main.simhash : null,
    lang,
    indexable,
  };
}

function linkCounts(facts: PageFacts, pageUrl: string): { internalLinkCount: number; externalLinkCount: number } {
  const origin = new URL(pageUrl).origin;
  let internal = 0;
  let external = 0;
  for (const link of facts.links) {
    if (link.url === null || !/^https?:/.test(link.url)) continue;
    if (hasOrigin(link.url, origin)) internal++;
    else external++;
  }
  return { internalLinkCount: internal, externalLinkCount: external };
}

/** Duplicates compare texts trimmed, whitespace collapsed (already so in the facts) and case-folded. */
function textKey(text: string | undefined): string | null {
  if (!text) return null;
  return createHash('sha256').update(text.toLowerCase()).digest('base64url').slice(0, 22);
}
