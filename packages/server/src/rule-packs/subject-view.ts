import { type AnyNode, type Document, type Element, hasChildren, isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { ElementQuery } from './compiled-rule.ts';
import type { RuleSubject } from './rule-subject.ts';

/** The most of any one text a rule looks at (audit-checks.md §3.2): a bound on every scan. */
export const MAX_TEXT_CHARS = 1024 * 1024;

export type TextSource = 'visible' | 'html' | 'title' | 'url' | 'path';

const views = new WeakMap<RuleSubject, SubjectView>();

function capped(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

/** The subject with its markup and text cut where rules stop reading them: what a rule thread needs copied. */
export function subjectAsRulesSeeIt(subject: RuleSubject): RuleSubject {
  const { html, renderedHtml, visibleText } = subject;
  return {
    ...subject,
    html: html === null ? null : capped(html),
    visibleText: visibleText === null ? null : capped(visibleText),
    ...(renderedHtml === undefined ? {} : { renderedHtml: renderedHtml === null ? null : capped(renderedHtml) }),
  };
}

/**
 * The text of an element and its descendants, as domutils' textContent reads it (text and
 * CDATA, not comments), cut at MAX_TEXT_CHARS; walked with a stack of its own, since a page of
 * nested unclosed tags is deeper than the call stack.
 */
function textOf(element: Element): string {
  const parts: string[] = [];
  let length = 0;
  const stack: AnyNode[] = [element];
  while (stack.length > 0 && length < MAX_TEXT_CHARS) {
    const node = stack.pop() as AnyNode;
    if (node.type === 'text') {
      parts.push(node.data);
      length += node.data.length;
    } else if (hasChildren(node)) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
    }
  }
  return capped(parts.join(''));
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Which DOM a selector condition reads: the HTML as fetched, or the browser's after scripts ran. */
export type DomSource = 'raw' | 'rendered';

/** One parsed document: its elements in document order, and the elements each selector matched. */
interface ParsedDom {
  document: Document;
  /** Filled on the first selector. */
  elements: Element[] | undefined;
  selections: Map<ElementQuery, Element[]>;
}

/** Every element in document order, as css-select walks them: not inside a `<template>`. */
function elementsOf(document: Document): Element[] {
  // An explicit stack: a page of nested unclosed tags is deeper than the call stack.
  const elements: Element[] = [];
  const lists: (readonly AnyNode[])[] = [document.children];
  const positions = [0];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top] as readonly AnyNode[];
    const position = positions[top] as number;
    if (position >= list.length) {
      lists.pop();
      positions.pop();
      continue;
    }
    positions[top] = position + 1;
    const node = list[position] as AnyNode;
    if (!isTag(node)) continue;
    elements.push(node);
    if (node.name !== 'template' && node.children.length > 0) {
      lists.push(node.children);
      positions.push(0);
    }
  }
  return elements;
}

/**
 * What rules derive from one subject, each worked out once when first needed: each DOM
 * (parsed only if a selector on it asks; the rendered one only for a `dom: "rendered"`
 * condition), lower-cased texts for case-insensitive tests, the elements each compiled
 * selector matched, element texts and the decoded path. One view per subject object, shared
 * by every rule evaluated on it.
 */
export class SubjectView {
  readonly subject: RuleSubject;
  readonly #doms = new Map<DomSource, ParsedDom | null>();
  readonly #texts = new Map<TextSource, string | null>();
  readonly #lowered = new Map<TextSource, string | null>();
  readonly #elementTexts = new WeakMap<Element, string>();
  #target: { path: string; pathAndQuery: string } | undefined;

  private constructor(subject: RuleSubject) {
    this.subject = subject;
  }

  static of(subject: RuleSubject): SubjectView {
    let view = views.get(subject);
    if (!view) {
      view = new SubjectView(subject);
      views.set(subject, view);
    }
    return view;
  }

  /** Null when the subject has no such DOM: no HTML, or a page the crawl did not render. */
  document(source: DomSource = 'raw'): Document | null {
    return this.#dom(source)?.document ?? null;
  }

  /**
   * The elements a selector matches, in document order; null when the subject has no such
   * DOM. What css-select's selectAll answers, found by testing the compiled query on each
   * element of one list per page rather than walking the tree again for every selector
   * (several times faster with tens of selectors).
   */
  select(query: ElementQuery, source: DomSource = 'raw'): Element[] | null {
    const dom = this.#dom(source);
    if (dom === null) return null;
    dom.elements ??= elementsOf(dom.document);
    let selected = dom.selections.get(query);
    if (!selected) {
      selected = dom.elements.filter((element) => query(element));
      dom.selections.set(query, selected);
    }
    return selected;
  }

  #dom(source: DomSource): ParsedDom | null {
    let dom = this.#doms.get(source);
    if (dom === undefined) {
      const html = source === 'raw' ? this.subject.html : (this.subject.renderedHtml ?? null);
      dom = html === null ? null : { document: parseDocument(capped(html)), elements: undefined, selections: new Map() };
      this.#doms.set(source, dom);
    }
    return dom;
  }

  /** An element's text with runs of whitespace collapsed to one space, trimmed. */
  elementText(element: Element): string {
    let text = this.#elementTexts.get(element);
    if (text === undefined) {
      text = textOf(element).replace(/\s+/g, ' ').trim();
      this.#elementTexts.set(element, text);
    }
    return text;
  }

  /** A text as rules see it, cut at 1 MiB; null when the subject does not have it (no HTML). */
  text(source: TextSource): string | null {
    if (this.#texts.has(source)) return this.#texts.get(source) as string | null;
    const text = this.#read(source);
    this.#texts.set(source, text);
    return text;
  }

  lowered(source: TextSource): string | null {
    if (this.#lowered.has(source)) return this.#lowered.get(source) as string | null;
    const lowered = this.text(source)?.toLowerCase() ?? null;
    this.#lowered.set(source, lowered);
    return lowered;
  }

  /** What scope globs see: the decoded path, and the decoded path and query. */
  target(): { path: string; pathAndQuery: string } {
    if (!this.#target) {
      let url: URL | undefined;
      try {
        url = new URL(this.subject.url);
      } catch {
        url = undefined;
      }
      const path = url ? decoded(url.pathname) : '';
      this.#target = { path, pathAndQuery: url?.search ? path + decoded(url.search) : path };
    }
    return this.#target;
  }

  #read(source: TextSource): string | null {
    const subject = this.subject;
    switch (source) {
      case 'visible':
        return subject.visibleText === null ? null : capped(subject.visibleText);
      case 'html':
        return subject.html === null ? null : capped(subject.html);
      case 'title':
        // An HTML page without a title has the empty title; a non-HTML answer has none at all.
        return subject.title !== null ? capped(subject.title) : subject.html === null ? null : '';
      case 'url':
        return capped(subject.url);
      case 'path':
        return capped(this.target().path);
    }
  }
}
