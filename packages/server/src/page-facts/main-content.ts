import { PAGE_FACT_CAPS as CAPS } from './page-fact-caps.ts';
import { TextDigest, type TextDigests } from './text-digest.ts';
import { KEPT_TEXT_CHARS, type VisibleText, type VisibleTextSummary } from './visible-text.ts';

/** A page's main content: what the content checks measure and search indexes. */
export interface MainTextSummary extends VisibleTextSummary, TextDigests {
  /**
   * Where it was found: the page's first `<main>` (or `[role=main]`), else its `<article>`s,
   * else the body without its navigation, banner, footer, sidebars and search.
   */
  from: 'main' | 'article' | 'body';
  /**
   * The stretches of the whole visible text (`PageFacts.text.text`, before its cap) that make
   * it up, as [start, end) offsets in order: the main text is their words joined by spaces.
   * At most PAGE_FACT_CAPS.mainTextRanges.
   */
  ranges: Array<[number, number]>;
}

/** ARIA landmarks that are never a page's own content, wherever they are. */
const OFF_MAIN_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Their elements: `header` and `footer` only count outside sectioning content (see `#excludes`). */
const OFF_MAIN_ELEMENTS = new Set(['nav', 'aside', 'search']);
/**
 * Class names and ids of site-wide chrome on pages without landmarks (DocBook's navheader and
 * navfooter, mdBook's menu bar, the classic `#header`): Readability's "unlikely candidates",
 * narrowed to whole names so that `page-header` or `article-footer` stay content.
 */
const CHROME_NAMES = new Set([
  'header',
  'footer',
  'masthead',
  'site-header',
  'site-footer',
  'nav',
  'navbar',
  'navigation',
  'navheader',
  'navfooter',
  'menu',
  'menubar',
  'menu-bar',
  'sidebar',
  'breadcrumb',
  'breadcrumbs',
  'skip-link',
]);

/** One candidate for the main content: its words, and where they sit in the whole text. */
class Candidate {
  readonly #digest = new TextDigest();
  readonly ranges: Array<[number, number]> = [];
  #start = -1;
  #words = 0;
  readonly #kept: string[] = [];
  #keptChars = 0;

  /** A batch of the whole text's words, all of them this candidate's. */
  take(words: string, count: number): void {
    this.#words += count;
    this.#digest.add(words);
    if (this.#keptChars < KEPT_TEXT_CHARS) {
      this.#kept.push(words);
      this.#keptChars += words.length + 1;
    }
  }

  finish(): VisibleTextSummary & TextDigests {
    const kept = this.#kept.join(' ');
    const text = kept.length > KEPT_TEXT_CHARS ? kept.slice(0, KEPT_TEXT_CHARS) : kept;
    return { wordCount: this.#words, text, ...this.#digest.finish() };
  }

  get collecting(): boolean {
    return this.#start !== -1;
  }

  get words(): number {
    return this.#words;
  }

  start(at: number): void {
    this.#start = at;
  }

  stop(at: number): void {
    const ranges = this.ranges;
    const last = ranges[ranges.length - 1];
    // Past the cap a stretch joins the one before, gap and all: the text for search takes in
    // some chrome on such a page, while its words, hash and SimHash stay exact.
    if (at > this.#start) {
      if (last !== undefined && ranges.length >= CAPS.mainTextRanges) last[1] = at;
      else ranges.push([this.#start, at]);
    }
    this.#start = -1;
  }
}

/**
 * Picks a page's main content out of its visible text during the one parse of the page. The
 * collector tells it of each block element as it opens (and runs what it returns when the
 * element closes); the words come from the whole text's batches, cut wherever the context
 * changes, so each batch belongs to one candidate or none and the text is scanned once. At
 * most one candidate takes words at a time: the body without its chrome outside any `<main>`
 * or `<article>`, or that element; which one wins is known once the page is read.
 */
export class MainContent {
  readonly #whole: VisibleText;
  readonly #body = new Candidate();
  #articles: Candidate | null = null;
  #main: Candidate | null = null;
  /** 0: no main element yet; 1: inside the first; 2: past it. */
  #mainState = 0;
  #articleDepth = 0;
  #sectionDepth = 0;
  /** Open elements that are not main content in the current context. */
  #excluded = 0;
  #current: Candidate | null;

  /** `whole` is the page's whole visible text, fed the same pieces: main content is stretches of it. */
  constructor(whole: VisibleText) {
    this.#whole = whole;
    this.#current = this.#body;
    this.#body.start(0);
    whole.listen((words, count) => this.#current?.take(words, count));
  }

  /**
   * A block element opens (`role` trimmed and lower-cased); returns what to run when it
   * closes, or null when it changes nothing (most elements: nothing is allocated for them).
   */
  open(name: string, role: string | undefined, attribs: Record<string, string>): (() => void) | null {
    if ((name === 'main' || role === 'main') && this.#mainState === 0) return this.#enterMain();
    if (name === 'article' && this.#mainState === 0 && this.#excluded === 0) return this.#enterArticle();
    if (this.#excludes(name, role, attribs)) {
      this.#excluded++;
      this.#update();
      return this.#leaveExcluded;
    }
    if (name === 'section') {
      this.#sectionDepth++;
      return this.#leaveSection;
    }
    return null;
  }

  /** After the whole text's `finish()`, which hands on its last batch. */
  finish(): MainTextSummary {
    const at = this.#whole.length;
    // An empty <main> (a placeholder, a skip-link target) holds none of the page's words:
    // the body's text without its chrome is the content then.
    const main = this.#main !== null && this.#main.words > 0 ? this.#main : null;
    const chosen = main ?? this.#articles ?? this.#body;
    if (chosen.collecting) chosen.stop(at);
    const from = chosen === main ? 'main' : chosen === this.#articles ? 'article' : 'body';
    return { ...chosen.finish(), from, ranges: chosen.ranges };
  }

  #excludes(name: string, role: string | undefined, attribs: Record<string, string>): boolean {
    if (OFF_MAIN_ELEMENTS.has(name) || (role !== undefined && OFF_MAIN_ROLES.has(role))) return true;
    if (this.#mainState === 1 || this.#articleDepth > 0) return false;
    // Outside main content, a header or footer not inside a section is the page's banner or contentinfo.
    if ((name === 'header' || name === 'footer') && this.#sectionDepth === 0) return true;
    // The page itself is never chrome, whatever its classes say (`<body class="nav">`).
    if (name === 'body' || name === 'html') return false;
    return isChrome(attribs.id) || isChrome(attribs.class);
  }

  #enterMain(): () => void {
    this.#mainState = 1;
    this.#main = new Candidate();
    // A main element is content even inside something that looked like chrome.
    const excluded = this.#excluded;
    this.#excluded = 0;
    this.#update();
    return () => {
      this.#mainState = 2;
      this.#excluded = excluded;
      this.#update();
    };
  }

  #enterArticle(): () => void {
    if (this.#articleDepth++ === 0) this.#articles ??= new Candidate();
    this.#update();
    return () => {
      this.#articleDepth--;
      this.#update();
    };
  }

  readonly #leaveExcluded = (): void => {
    this.#excluded--;
    this.#update();
  };

  readonly #leaveSection = (): void => {
    this.#sectionDepth--;
  };

  /** Moves the text to the candidate the context now calls for, noting where each stretch ends. */
  #update(): void {
    const next = this.#excluded > 0 ? null : this.#candidateHere();
    if (next === this.#current) return;
    this.#whole.cut();
    const at = this.#whole.length;
    this.#current?.stop(at);
    next?.start(at);
    this.#current = next;
  }

  #candidateHere(): Candidate | null {
    if (this.#mainState === 1) return this.#main;
    if (this.#articleDepth > 0) return this.#articles;
    return this.#articles === null ? this.#body : null;
  }
}

function isChrome(value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (!/\s/.test(value)) return CHROME_NAMES.has(value.toLowerCase());
  for (const name of value.split(/\s+/)) if (CHROME_NAMES.has(name.toLowerCase())) return true;
  return false;
}

/**
 * The main content's text out of a page's kept visible text and its ranges (null: the whole
 * text). Stretches past the kept text's cap are cut with it.
 */
export function mainTextOf(text: string, ranges: ReadonlyArray<readonly [number, number]> | null): string {
  if (ranges === null) return text;
  const parts: string[] = [];
  for (const [start, end] of ranges) {
    const part = text.slice(start, end).trim();
    if (part !== '') parts.push(part);
  }
  return parts.join(' ');
}
