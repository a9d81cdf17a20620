import { MAX_INSTANCES } from './counted-instances.ts';

/**
 * Bounds on what `extractPageFacts` keeps from one page, so a hostile or merely enormous
 * page costs a bounded amount of memory and storage however many elements it has. Every
 * capped list has a matching total that keeps counting past the cap (`linkCount` beside
 * `links`, …), and every capped text has its full length beside it, so a check can still
 * tell "more than the cap" from "exactly the cap". The instances a check lists are bounded
 * apart, by MAX_INSTANCES (counted-instances.ts), as the finding that lists them is.
 *
 * Texts are cut in code points (§0 of audit-checks.md measures lengths in code points);
 * raw attribute values (hrefs, srcs) are cut in UTF-16 units, as they are mostly ASCII.
 */
export const PAGE_FACT_CAPS = {
  /** Code points kept of each `<title>` text and of each meta description / Open Graph value. */
  titleText: 1_000,
  /** Code points kept of each meta content that is not a title or description (robots, viewport, CSP, refresh). */
  metaContent: 1_000,
  /** Code points kept of each heading's text. */
  headingText: 300,
  /** Code points kept of each link's anchor text. */
  anchorText: 200,
  /** Code points kept of each image's alt and each iframe's title. */
  altText: 300,
  /** UTF-16 units kept of each raw href/src. */
  hrefChars: 2_048,
  /** Hrefs longer than this are recorded but not resolved (their `url` is null). */
  resolvableHrefChars: 8_192,

  canonicals: 20,
  hreflangs: 500,
  headings: 1_000,
  links: 5_000,
  images: 2_000,
  srcsetCandidates: 20,
  scripts: 500,
  stylesheets: 500,
  /** Iframes and forms are what their checks list (untitled frames, insecure forms): as many as a finding keeps. */
  iframes: MAX_INSTANCES,
  forms: MAX_INSTANCES,
  /** Media, embeds and fetched `<link>`s kept only to look for mixed content. */
  otherSubresources: 500,
  cspMetas: 10,
  jsonLdBlocks: 50,
  /** Characters kept (and parsed) of one JSON-LD block; a longer block is reported unparsed. */
  jsonLdChars: 262_144,
  jsonLdTypes: 200,
  microdataTypes: 100,
  /** Stretches of the visible text that make up the main content (kept with the page's summary). */
  mainTextRanges: 200,
  /** Distinct `id` and `label[for]` values remembered; past this, duplicates go unnoticed. */
  ids: 20_000,
  /** Controls whose label can only be a later `label[for]`; past this they count as labeled. */
  pendingControls: 2_000,
  /**
   * Open elements at once. htmlparser2 keeps its stack with `unshift`/`indexOf`, so parsing
   * costs O(depth) per tag: 50,000 unclosed `<div>`s (300 KB) take seconds. Reading stops
   * here and the facts say so (`truncated`). Blink stops nesting at 512, so no page that
   * renders sanely comes near it.
   */
  nestingDepth: 4_096,
} as const;
