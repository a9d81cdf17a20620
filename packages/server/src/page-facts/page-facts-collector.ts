import type { Handler, Parser } from 'htmlparser2';
import { AccessibleControls, hasLabel } from './accessible-controls.ts';
import { MAX_INSTANCES, shortenInstance } from './counted-instances.ts';
import { MainContent } from './main-content.ts';
import { charsetOf, MetaTags } from './meta-tags.ts';
import { PAGE_FACT_CAPS as CAPS } from './page-fact-caps.ts';
import type { HeadingFact, PageFacts, TextFact } from './page-facts.ts';
import { headerValue, PageResources } from './page-resources.ts';
import { RawTextBlocks } from './raw-text-blocks.ts';
import { robotsFacts } from './robots-directives.ts';
import { Capture, TextCaptures } from './text-captures.ts';
import { VisibleText } from './visible-text.ts';

/** Elements the HTML standard lets stay in the head; any other element ends it. */
const HEAD_ELEMENTS = new Set(['html', 'head', 'base', 'link', 'meta', 'noscript', 'script', 'style', 'template', 'title']);
/** Inline elements: their edges do not separate words ("foo<b>bar</b>" is one word). */
const INLINE = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);
/** HTML elements whose text a reader never sees (script and style are raw text, handled apart). */
const HIDDEN_TEXT = new Set(['iframe', 'noembed', 'noframes']);
/** The same in SVG and MathML, where `title` and `desc` name the graphic without showing it. */
const HIDDEN_FOREIGN_TEXT = new Set(['script', 'style', 'title', 'desc']);
// Maps, not object literals: looking up a tag name parsed from the page in an object costs a
// string-table lookup per element, and finds Object.prototype's members (`<constructor>`).
const HEADING_LEVEL = new Map<string, HeadingFact['level']>([
  ['h1', 1],
  ['h2', 2],
  ['h3', 3],
  ['h4', 4],
  ['h5', 5],
  ['h6', 6],
]);
const JS_TYPES = /^(?:|(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/(?:javascript1\.[0-5]|jscript|livescript))$/;

// What an open element changed, undone when it closes.
const TEMPLATE = 1;
const NOSCRIPT = 2;
const FOREIGN = 4;
const NAV = 8;
const LABEL = 16;
const HIDDEN = 32;
const COUNTED = 64;
const ALT = 128;

interface Frame {
  flags: number;
  children: number;
  captures: number;
  onClose: (() => void) | null;
}

/**
 * The htmlparser2 handler behind `extractPageFacts`, one instance per page. It keeps a stack
 * of open elements and the contexts they set (head or body, noscript, template, SVG, nav,
 * label, hidden text), sends text to the visible-text counter and to the captures of the
 * open links, headings and buttons, and hands each element to the collector of its family.
 */
export class PageFactsCollector implements Partial<Handler> {
  readonly #html: string;
  #parser: Parser | null = null;
  readonly #frames: Frame[] = [];
  #inBody = false;
  #templateDepth = 0;
  #noscriptDepth = 0;
  #foreignDepth = 0;
  #navDepth = 0;
  #labelDepth = 0;
  #hiddenDepth = 0;
  #altDepth = 0;
  #depth = 0;
  /** Children of the document itself: top-level elements of a page without `<html>`. */
  #rootChildren = 0;
  #truncated: PageFacts['truncated'] = null;
  #title: Capture | null = null;
  #firstTitle: TextFact | null = null;

  readonly #captures = new TextCaptures();
  readonly #raw = new RawTextBlocks();
  readonly #text = new VisibleText();
  readonly #main = new MainContent(this.#text);
  readonly #meta = new MetaTags();
  readonly #controls = new AccessibleControls();
  readonly #resources = new PageResources();
  #htmlLang: string | null = null;
  readonly #titles: TextFact[] = [];
  #titleCount = 0;
  #headTitleCount = 0;
  readonly #headings: HeadingFact[] = [];
  #headingCount = 0;
  #h1Count = 0;
  readonly #h1Texts: string[] = [];
  readonly #microdata = { itemscopeCount: 0, itemtypes: [] as string[] };
  readonly #dom = { elementCount: 0, maxDepth: 0, maxChildren: 0 };

  constructor(html: string) {
    this.#html = html;
  }

  onparserinit(parser: Parser): void {
    this.#parser = parser;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    const frame: Frame = { flags: 0, children: 0, captures: 0, onClose: null };
    this.#frames.push(frame);
    if (this.#frames.length >= CAPS.nestingDepth && this.#truncated === null && this.#parser !== null) {
      // This element is still read; the parser stops after it, and `finish` closes what is open.
      this.#truncated = { reason: 'nesting-depth', atChar: this.#parser.startIndex };
      this.#parser.pause();
    }
    if (this.#templateDepth > 0) {
      if (name === 'template') this.#enter(frame, TEMPLATE);
      return;
    }
    this.#boundary(name);
    if (this.#noscriptDepth > 0) {
      if (this.#foreignDepth === 0) this.#openInNoscript(frame, name, attribs);
      return;
    }
    this.#count(frame);
    if (attribs.id !== undefined) this.#controls.noteId(attribs.id.trim());
    if (!this.#inBody && (name === 'body' || !HEAD_ELEMENTS.has(name))) this.#inBody = true;
    if (this.#foreignDepth > 0 || name === 'svg' || name === 'math') {
      if (name === 'svg' || name === 'math') this.#enter(frame, FOREIGN);
      if (HIDDEN_FOREIGN_TEXT.has(name)) this.#enter(frame, HIDDEN);
      if (name === 'title' || name === 'desc') this.#enter(frame, ALT);
      return;
    }
    this.#openHtml(frame, name, attribs);
  }

  onclosetag(name: string): void {
    const frame = this.#frames.pop();
    if (frame === undefined) return;
    const flags = frame.flags;
    if (flags & TEMPLATE) this.#templateDepth--;
    if (this.#templateDepth > 0) return;
    if (frame.onClose !== null) frame.onClose();
    if (frame.captures > 0) this.#captures.close(frame.captures);
    if (flags & NOSCRIPT && --this.#noscriptDepth === 0) this.#captures.noscript(false);
    if (flags & FOREIGN) this.#foreignDepth--;
    if (flags & NAV) this.#navDepth--;
    if (flags & LABEL) this.#labelDepth--;
    if (flags & HIDDEN) this.#hiddenDepth--;
    if (flags & ALT) this.#altDepth--;
    if (flags & COUNTED) this.#depth--;
    this.#boundary(name);
  }

  ontext(data: string): void {
    if (this.#raw.open) {
      this.#raw.text(data);
      return;
    }
    if (this.#templateDepth > 0) return;
    if (this.#title !== null) {
      this.#title.text.append(data);
      return;
    }
    if (this.#hiddenDepth === 0 || this.#altDepth > 0) this.#captures.text(data, this.#altDepth > 0);
    if (this.#noscriptDepth > 0 || this.#hiddenDepth > 0) return;
    if (!this.#inBody && /\S/.test(data)) this.#inBody = true;
    this.#text.append(data);
  }

  finish(pageUrl: string, headers: Record<string, string | undefined>): PageFacts {
    while (this.#frames.length > 0) this.onclosetag('');
    const refresh = this.#meta.refresh;
    const metaRefresh =
      refresh === null ? null : { content: refresh.content, delaySeconds: refresh.delaySeconds, url: null as string | null };
    if (metaRefresh !== null && refresh?.target != null) this.#resources.resolveLater(refresh.target, (ref) => (metaRefresh.url = ref.url));
    const resources = this.#resources.finish(pageUrl, headers);
    const meta = this.#meta.finish();
    const contentType = headerValue(headers, 'content-type');
    return {
      truncated: this.#truncated,
      ...resources.location,
      htmlChars: this.#html.length,
      htmlBytes: Buffer.byteLength(this.#html),
      htmlLang: this.#htmlLang,
      charset: {
        header: contentType === undefined ? null : (charsetOf(contentType)?.toLowerCase() ?? null),
        meta: this.#meta.charset,
        metaInFirst1024Bytes: this.#meta.charsetInFirst1024Bytes,
      },
      title: this.#firstTitle,
      titles: this.#titles,
      titleCount: this.#titleCount,
      headTitleCount: this.#headTitleCount,
      ...meta,
      robots: robotsFacts(this.#meta.robots, headerValue(headers, 'x-robots-tag')),
      metaRefresh,
      headings: this.#headings,
      headingCount: this.#headingCount,
      h1Count: this.#h1Count,
      h1Texts: this.#h1Texts,
      text: this.#text.finish(),
      mainText: this.#main.finish(),
      ...resources.facts,
      ...this.#raw.finish(),
      microdata: this.#microdata,
      dom: this.#dom,
      accessibility: this.#controls.finish(),
    };
  }

  #enter(frame: Frame, flag: number): void {
    frame.flags |= flag;
    if (flag === TEMPLATE) this.#templateDepth++;
    else if (flag === NOSCRIPT && this.#noscriptDepth++ === 0) this.#captures.noscript(true);
    else if (flag === FOREIGN) this.#foreignDepth++;
    else if (flag === NAV) this.#navDepth++;
    else if (flag === LABEL) this.#labelDepth++;
    else if (flag === HIDDEN) this.#hiddenDepth++;
    else if (flag === ALT) this.#altDepth++;
  }

  #count(frame: Frame): void {
    const dom = this.#dom;
    dom.elementCount++;
    frame.flags |= COUNTED;
    if (++this.#depth > dom.maxDepth) dom.maxDepth = this.#depth;
    const parent = this.#frames[this.#frames.length - 2];
    const children = parent === undefined ? ++this.#rootChildren : ++parent.children;
    if (children > dom.maxChildren) dom.maxChildren = children;
  }

  /** Block edges separate words, in the page text and in every text being captured. */
  #boundary(name: string): void {
    if (INLINE.has(name)) return;
    this.#text.boundary();
    this.#captures.space();
  }

  #capture(frame: Frame, capture: Capture): void {
    frame.captures++;
    this.#captures.open(capture);
  }

  /** Runs `action` when `frame` closes, after what was registered before it. */
  #onClose(frame: Frame, action: () => void): void {
    const previous = frame.onClose;
    frame.onClose =
      previous === null
        ? action
        : () => {
            previous();
            action();
          };
  }

  /** With scripting on, noscript content is not in the page; its links and images are still worth knowing. */
  #openInNoscript(frame: Frame, name: string, attribs: Record<string, string>): void {
    if (name === 'noscript') this.#enter(frame, NOSCRIPT);
    else if (name === 'a' && attribs.href !== undefined) this.#openLink(frame, attribs, true);
    else if (name === 'img') this.#openImage(attribs, true);
  }

  #openHtml(frame: Frame, name: string, attribs: Record<string, string>): void {
    const inHead = !this.#inBody;
    if (HIDDEN_TEXT.has(name)) this.#enter(frame, HIDDEN);
    if (attribs.itemscope !== undefined) this.#microdata.itemscopeCount++;
    if (attribs.itemtype !== undefined) this.#noteItemtypes(attribs.itemtype);
    const role = attribs.role?.trim().toLowerCase();
    if (name === 'nav' || role === 'navigation') this.#enter(frame, NAV);
    const leaveMain = INLINE.has(name) ? null : this.#main.open(name, role, attribs);
    if (leaveMain !== null) this.#onClose(frame, leaveMain);
    if (role === 'button' && name !== 'button' && name !== 'input') this.#openButton(frame, name, attribs);
    const level = HEADING_LEVEL.get(name);
    if (level !== undefined) {
      this.#openHeading(frame, level);
      return;
    }
    switch (name) {
      case 'html':
        if (this.#htmlLang === null && attribs.lang !== undefined) this.#htmlLang = attribs.lang.trim();
        break;
      case 'title':
        this.#openTitle(frame, inHead);
        break;
      case 'meta':
        this.#meta.add(attribs, inHead, () => this.#inFirst1024Bytes());
        break;
      case 'noscript':
        this.#enter(frame, NOSCRIPT);
        break;
      case 'template':
        this.#enter(frame, TEMPLATE);
        break;
      case 'a':
        if (attribs.href !== undefined) this.#openLink(frame, attribs, false);
        break;
      case 'img':
        this.#openImage(attribs, false);
        break;
      case 'script':
        this.#openScript(frame, attribs, inHead);
        break;
      case 'style':
        this.#raw.start('style');
        this.#onClose(frame, () => this.#raw.end());
        break;
      case 'button':
        this.#openButton(frame, name, attribs);
        break;
      case 'input':
        if (attribs.type?.trim().toLowerCase() === 'image') this.#resources.element(name, attribs, inHead);
        this.#controls.input(attribs, this.#labelDepth > 0);
        break;
      case 'select':
      case 'textarea':
        this.#controls.control(name, attribs, this.#labelDepth > 0);
        break;
      case 'label':
        this.#enter(frame, LABEL);
        if (attribs.for !== undefined) this.#controls.noteLabelFor(attribs.for.trim());
        break;
      default:
        this.#resources.element(name, attribs, inHead);
        break;
    }
  }

  #openTitle(frame: Frame, inHead: boolean): void {
    this.#titleCount++;
    if (inHead) this.#headTitleCount++;
    const capture = new Capture(CAPS.titleText, false);
    this.#title = capture;
    this.#onClose(frame, () => {
      this.#title = null;
      if (this.#titles.length === MAX_INSTANCES) return;
      const title = { text: capture.text.text, length: capture.text.length, inHead };
      this.#firstTitle ??= title;
      this.#titles.push({ ...title, text: shortenInstance(title.text) });
    });
  }

  #openHeading(frame: Frame, level: HeadingFact['level']): void {
    this.#headingCount++;
    if (level === 1) this.#h1Count++;
    const capture = new Capture(CAPS.headingText, false);
    this.#capture(frame, capture);
    const fact: HeadingFact = { level, text: '', length: 0 };
    if (this.#headings.length < CAPS.headings) this.#headings.push(fact);
    this.#onClose(frame, () => {
      fact.text = capture.text.text;
      fact.length = capture.text.length;
      if (level === 1 && this.#h1Texts.length < MAX_INSTANCES) this.#h1Texts.push(fact.text);
    });
  }

  #openLink(frame: Frame, attribs: Record<string, string>, inNoscript: boolean): void {
    const fact = this.#resources.link(attribs, this.#navDepth > 0, inNoscript);
    if (fact === null) return;
    const capture = new Capture(CAPS.anchorText, true);
    this.#capture(frame, capture);
    const labelled = hasLabel(attribs);
    this.#onClose(frame, () => {
      fact.text = capture.text.text;
      fact.named = labelled || capture.text.length > 0 || capture.alt.length > 0;
    });
  }

  #openImage(attribs: Record<string, string>, inNoscript: boolean): void {
    this.#resources.image(attribs, inNoscript);
    if (attribs.alt !== undefined) this.#captures.alt(attribs.alt);
  }

  #openScript(frame: Frame, attribs: Record<string, string>, inHead: boolean): void {
    const type = (attribs.type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const kind = type === 'module' ? 'module' : JS_TYPES.test(type) ? 'classic' : 'data';
    if (attribs.src !== undefined) this.#resources.script(attribs, kind, inHead);
    this.#raw.start(type === 'application/ld+json' ? 'jsonld' : attribs.src === undefined && kind !== 'data' ? 'script' : 'ignore');
    this.#onClose(frame, () => this.#raw.end());
  }

  #openButton(frame: Frame, name: string, attribs: Record<string, string>): void {
    const ownAlt = name === 'img' && attribs.alt !== undefined && attribs.alt.trim() !== '';
    const capture = new Capture(1, false);
    this.#capture(frame, capture);
    this.#onClose(frame, () => this.#controls.button(name, attribs, ownAlt || capture.text.length > 0));
  }

  #noteItemtypes(value: string): void {
    const itemtypes = this.#microdata.itemtypes;
    for (const type of value.split(/\s+/)) {
      if (type !== '' && itemtypes.length < CAPS.microdataTypes && !itemtypes.includes(type)) itemtypes.push(type);
    }
  }

  /** Whether the tag just read ends within the first 1,024 bytes of the document (UTF-8). */
  #inFirst1024Bytes(): boolean {
    const end = (this.#parser?.endIndex ?? Number.POSITIVE_INFINITY) + 1;
    return end <= 1024 && Buffer.byteLength(this.#html.slice(0, end)) <= 1024;
  }
}
