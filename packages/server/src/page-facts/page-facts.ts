/**
 * Everything the page-scope checks of audit-checks.md §1 need from one HTML document,
 * gathered in a single streaming pass of htmlparser2's `Parser` (no DOM), so the crawler
 * can analyse thousands of pages a minute in memory bounded per page (PAGE_FACT_CAPS).
 *
 * How the raw markup is read, where a DOM would have decided for us:
 *
 * - **Head and body.** An element is "in the head" while the parser is still in the head
 *   by the HTML standard's rules: until `<body>`, an element that may not appear in the head
 *   (anything but html, head, base, link, meta, noscript, script, style, template, title),
 *   or non-whitespace text outside those. This is also where Google stops reading head
 *   tags, so a canonical after an `<img>` in the head is `inHead: false`.
 * - **Scripting on.** Like Googlebot and Lighthouse, `<noscript>` content is not part of the
 *   page: its text is not visible text and its meta, link, title and script tags count for
 *   nothing. Its `<a>` and `<img>` are still recorded, flagged `inNoscript`, because
 *   crawlers follow them and lazy-loading fallbacks live there.
 * - **Templates.** `<template>` content is inert (not in the document): nothing in it counts.
 * - **Foreign content.** `<svg>` and `<math>` subtrees hold no HTML facts: an SVG `<title>`
 *   is not a page title, an SVG `<a>` not a link. An SVG `<title>` inside a link, heading or
 *   button does name it, as it does for a screen reader.
 * - **URLs** are kept raw and resolved once the whole page is read, against the document's
 *   base URL (the first `<base href>` anywhere, as in a browser), with the fragment
 *   removed. Only http(s) targets get a `url`; see `ResolvedRef`.
 * - **Main content.** Beside the whole visible text, the text of the page's main content is
 *   kept apart in the same pass (main-content.ts): the first `<main>`, else the `<article>`s,
 *   else the body without its navigation, banner, footer, sidebars, search, and elements whose
 *   class or id names them chrome (DocBook's `navheader`). No second parse and no DOM: the words
 *   are the whole text's, cut where the context changes.
 * - **Counts past the caps.** Totals (`linkCount`, `imageCount`, …) count every element;
 *   derived facts (mixed content) only look at what was recorded. The instances a check lists
 *   (unlabeled controls, metas in the body, the values of several descriptions) are kept up to
 *   MAX_INSTANCES, as its finding keeps them (counted-instances.ts), beside their full count.
 */
import { Parser } from 'htmlparser2';
import type { CountedInstances } from './counted-instances.ts';
import type { JsonLdBlock } from './json-ld.ts';
import type { MainTextSummary } from './main-content.ts';
import { PageFactsCollector } from './page-facts-collector.ts';
import type { RobotsDirectives } from './robots-directives.ts';
import type { VisibleTextSummary } from './visible-text.ts';

export { PAGE_FACT_CAPS } from './page-fact-caps.ts';
export type { CountedInstances, JsonLdBlock, MainTextSummary, RobotsDirectives, VisibleTextSummary };

/** A text as §0 measures it: trimmed, whitespace collapsed, length in code points. */
export interface TextFact {
  /** The collapsed text, cut at its cap. */
  text: string;
  /** Code points of the whole collapsed text, before the cap. */
  length: number;
  inHead: boolean;
}

export interface CharsetFacts {
  /** `charset` of the Content-Type header, lower-cased; null when absent. */
  header: string | null;
  /** The first `<meta charset>` or `<meta http-equiv=content-type content="…charset=…">`, lower-cased. */
  meta: string | null;
  /** Whether that meta tag ends within the first 1,024 bytes (UTF-8) of the document. */
  metaInFirst1024Bytes: boolean;
}

export interface RobotsFacts {
  /** `<meta name="robots">` and `<meta name="googlebot">`, merged. */
  meta: RobotsDirectives;
  /** `X-Robots-Tag` lines for all agents or for Googlebot. */
  header: RobotsDirectives;
  /** Both: what `indexability/*` decides on. */
  combined: RobotsDirectives;
}

export interface LinkRefFact {
  /** The attribute as written (entities decoded), cut at PAGE_FACT_CAPS.hrefChars. */
  href: string;
  /** Absolute http(s) URL without fragment, or null (other schemes, unparsable). */
  url: string | null;
  /** Whether the href parses on its own, without the base URL (`canonical/invalid`, `hreflang/relative-url`). */
  absolute: boolean;
  /** Where the link was declared. */
  source: 'html' | 'header';
  /** For html links; header links count as in the head. */
  inHead: boolean;
}

export interface HreflangFact extends LinkRefFact {
  /** The hreflang value as written, trimmed. */
  lang: string;
}

export interface HeadingFact {
  level: 1 | 2 | 3 | 4 | 5 | 6;
  /** Text content plus the alt of images and SVG titles inside, collapsed, cut at the cap. */
  text: string;
  length: number;
}

export interface LinkFact {
  href: string;
  url: string | null;
  /** 'https', 'http', 'mailto', 'javascript', 'tel', …; null when the href does not parse. */
  scheme: string | null;
  /** Empty href, bare fragment, or this page's own URL. */
  samePage: boolean;
  /** Text content, collapsed, cut at PAGE_FACT_CAPS.anchorText; what `links/non-descriptive-text` reads. */
  text: string;
  /** Has an accessible name: text, an image alt or SVG title inside, aria-label, aria-labelledby or title. */
  named: boolean;
  /** `rel` tokens, lower-cased (nofollow, ugc, sponsored, …). */
  rel: string[];
  role: string | null;
  /** Inside `<nav>` or `[role=navigation]`. */
  inNav: boolean;
  inNoscript: boolean;
}

export interface ImageFact {
  /** The src attribute as written; null when absent. */
  src: string | null;
  /** Resolved http(s) URL; null for data:, blob:, an empty or absent src. */
  url: string | null;
  /** Null: no alt attribute (`images/alt-missing`); "": decorative. Collapsed, cut at PAGE_FACT_CAPS.altText. */
  alt: string | null;
  width: string | null;
  height: string | null;
  loading: string | null;
  hasSrcset: boolean;
  /** Resolved http(s) URLs of the srcset candidates, at most PAGE_FACT_CAPS.srcsetCandidates. */
  srcset: string[];
  role: string | null;
  inNoscript: boolean;
}

export interface ScriptFact {
  src: string;
  url: string | null;
  /** 'data' is any non-JavaScript type (ld+json, importmap, text/template, …). */
  kind: 'classic' | 'module' | 'data';
  async: boolean;
  defer: boolean;
  inHead: boolean;
  /** A classic script in the head without async or defer: the parser waits for it. */
  blocking: boolean;
}

export interface StylesheetFact {
  href: string;
  url: string | null;
  media: string | null;
  inHead: boolean;
  /** In the head, not `alternate`, not `media=print`. */
  blocking: boolean;
}

export interface IframeFact {
  src: string | null;
  url: string | null;
  /** Collapsed title attribute; null when absent (`accessibility-basic/iframe-no-title` reads ""/null). */
  title: string | null;
  loading: string | null;
}

export interface FormFact {
  action: string | null;
  /** The action resolved; an absent or empty action submits to the page's own URL. */
  url: string | null;
  /** Lower-cased; 'get' when absent. */
  method: string;
}

export interface SubresourceFact {
  /** Element and attribute that load it, e.g. 'img[src]', 'link[href]', 'video[poster]'. */
  source: string;
  url: string;
}

export interface ControlFacts {
  count: number;
  /** Those without an accessible name / label, as `input[type=email][name=mail]#m`. */
  failing: CountedInstances;
}

export interface PageFacts {
  /**
   * Null when the whole document was read. Otherwise reading stopped at UTF-16 offset
   * `atChar` because elements nested deeper than PAGE_FACT_CAPS.nestingDepth; every fact
   * describes the part before it.
   */
  truncated: { reason: 'nesting-depth'; atChar: number } | null;
  /** The page URL as given, and the base URL every href was resolved against. */
  url: string;
  baseUrl: string;
  /** The first `<base href>` as written; null when absent. */
  baseHref: string | null;
  /** Size of the decoded HTML (`performance/large-html`). */
  htmlChars: number;
  htmlBytes: number;

  /** `<html lang>` as written, trimmed; null when the attribute is absent. */
  htmlLang: string | null;
  charset: CharsetFacts;

  /** The first HTML `<title>` (what a browser shows), or null. */
  title: TextFact | null;
  /** Every `<title>` up to MAX_INSTANCES, texts shortened as a finding's instances (lengths are whole). */
  titles: TextFact[];
  titleCount: number;
  /** Of those, the titles in the head: the ones `titles/multiple` counts. */
  headTitleCount: number;
  /** The first `<meta name="description">` (content "" when the attribute is absent). */
  description: TextFact | null;
  /** Every description up to MAX_INSTANCES, head or body, texts shortened as a finding's instances. */
  descriptions: TextFact[];
  descriptionCount: number;

  robots: RobotsFacts;
  /** The first `<meta http-equiv="refresh">`: delay in seconds and target (resolved), when given. */
  metaRefresh: { content: string; delaySeconds: number | null; url: string | null } | null;
  /** Every refresh's content, collapsed. */
  metaRefreshes: CountedInstances;
  /** `<meta name="viewport">`: the first one's content, collapsed. */
  viewport: { content: string; inHead: boolean } | null;
  viewportCount: number;
  /** Contents of `<meta http-equiv="Content-Security-Policy">` in the head (browsers ignore it elsewhere). */
  cspMetas: string[];
  /** `<meta>` elements after the head ended (`indexability/meta-in-body`), e.g. `meta[name=robots]`. */
  metaInBody: CountedInstances;

  /** Canonicals from `<link rel=canonical>` (head or body) and from the Link header. */
  canonicals: LinkRefFact[];
  canonicalCount: number;
  /** `<link rel=alternate hreflang>` and Link-header alternates with hreflang. */
  hreflangs: HreflangFact[];
  hreflangCount: number;

  /** Headings h1–h6 in document order, for `headings/skipped-level`. */
  headings: HeadingFact[];
  headingCount: number;
  h1Count: number;
  /** The text of each `<h1>` up to MAX_INSTANCES, as its heading keeps it. */
  h1Texts: string[];

  /**
   * Visible body text, excluding script, style, noscript, template (and title, iframe fallback):
   * what custom rules read as the page's visible text.
   */
  text: VisibleTextSummary;
  /**
   * The page's main content, without the navigation, headers, footers and sidebars its site
   * repeats (see main-content.ts): what `content/thin`, the duplicate checks, soft 404s and
   * search read.
   */
  mainText: MainTextSummary;

  links: LinkFact[];
  /** Every `<a href>` (HTML, not in a template), including those inside noscript. */
  linkCount: number;
  images: ImageFact[];
  imageCount: number;
  /** External scripts (with src). */
  scripts: ScriptFact[];
  scriptCount: number;
  inlineScripts: { count: number; chars: number };
  inlineStyles: { count: number; chars: number };
  stylesheets: StylesheetFact[];
  stylesheetCount: number;
  iframes: IframeFact[];
  iframeCount: number;
  forms: FormFact[];
  formCount: number;
  /** On an https page: subresources that resolve to http: (`security/mixed-content`), up to MAX_INSTANCES. */
  mixedContent: { count: number; items: SubresourceFact[] };

  openGraph: { title: string | null; description: string | null; image: string | null; url: string | null; type: string | null };
  twitter: { card: string | null; title: string | null; description: string | null; image: string | null };
  jsonLd: JsonLdBlock[];
  jsonLdCount: number;
  /** Elements with `itemscope`, and the distinct `itemtype` URLs. */
  microdata: { itemscopeCount: number; itemtypes: string[] };

  /** `performance/dom-size`: elements (not counting template or noscript content), deepest nesting, most children. */
  dom: { elementCount: number; maxDepth: number; maxChildren: number };

  /** `accessibility-basic/*` facts that need the whole page to decide. */
  accessibility: {
    buttons: ControlFacts;
    /** Form controls other than hidden, submit, button, image and reset inputs. */
    controls: ControlFacts;
    /** Ids used more than once, as `#menu`, each counted once. */
    duplicateIds: CountedInstances;
  };
}

/**
 * Reads one HTML document in a single streaming pass. `pageUrl` is the final URL (after
 * redirects); `headers` are the response headers, names in any case, repeated headers
 * joined with ", ".
 */
export function extractPageFacts(html: string, pageUrl: string, headers: Record<string, string | undefined>): PageFacts {
  const collector = new PageFactsCollector(html);
  const parser = new Parser(collector, { decodeEntities: true });
  parser.end(html);
  return collector.finish(pageUrl, headers);
}
