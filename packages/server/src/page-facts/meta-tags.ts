import { CollapsedText } from './collapsed-text.ts';
import { countInstance, MAX_INSTANCES, noInstances, shortenInstance } from './counted-instances.ts';
import { PAGE_FACT_CAPS } from './page-fact-caps.ts';
import type { PageFacts, TextFact } from './page-facts.ts';
import { applyRobotsContent, noRobotsDirectives, type RobotsDirectives } from './robots-directives.ts';

type MetaFacts = Pick<
  PageFacts,
  | 'description'
  | 'descriptions'
  | 'descriptionCount'
  | 'metaRefreshes'
  | 'viewport'
  | 'viewportCount'
  | 'cspMetas'
  | 'metaInBody'
  | 'openGraph'
  | 'twitter'
>;

const OPEN_GRAPH = ['title', 'description', 'image', 'url', 'type'] as const;
const TWITTER = ['card', 'title', 'description', 'image'] as const;

/** Collects what `<meta>` elements say; one instance per page. */
export class MetaTags {
  readonly robots: RobotsDirectives = noRobotsDirectives();
  /** The first refresh's content; its target is resolved by the caller, against the base URL. */
  refresh: { content: string; delaySeconds: number | null; target: string | null } | null = null;
  charset: string | null = null;
  charsetInFirst1024Bytes = false;
  readonly #facts: MetaFacts = {
    description: null,
    descriptions: [],
    descriptionCount: 0,
    metaRefreshes: noInstances(),
    viewport: null,
    viewportCount: 0,
    cspMetas: [],
    metaInBody: noInstances(),
    openGraph: { title: null, description: null, image: null, url: null, type: null },
    twitter: { card: null, title: null, description: null, image: null },
  };

  /** `inFirst1024Bytes` is asked only for the first charset declaration. */
  add(attribs: Record<string, string>, inHead: boolean, inFirst1024Bytes: () => boolean): void {
    const facts = this.#facts;
    const name = attribs.name?.trim().toLowerCase() ?? '';
    const property = attribs.property?.trim().toLowerCase() ?? '';
    const httpEquiv = attribs['http-equiv']?.trim().toLowerCase() ?? '';
    const content = attribs.content ?? '';
    if (!inHead) countInstance(facts.metaInBody, () => describeMeta(attribs));
    if (this.charset === null) {
      const declared = attribs.charset ?? (httpEquiv === 'content-type' ? charsetOf(content) : null);
      if (declared !== null && declared !== undefined && declared.trim() !== '') {
        this.charset = declared.trim().toLowerCase();
        this.charsetInFirst1024Bytes = inFirst1024Bytes();
      }
    }
    if (name === 'description') this.#description(content, inHead);
    else if (name === 'robots' || name === 'googlebot') {
      applyRobotsContent(content, this.robots);
    } else if (name === 'viewport') {
      facts.viewportCount++;
      facts.viewport ??= { content: collapse(content), inHead };
    }
    if (httpEquiv === 'refresh') {
      countInstance(facts.metaRefreshes, () => collapse(content));
      this.refresh ??= parseRefresh(collapse(content));
    } else if (httpEquiv === 'content-security-policy' && inHead && facts.cspMetas.length < PAGE_FACT_CAPS.cspMetas) {
      // Browsers apply a CSP meta only in the head.
      facts.cspMetas.push(collapse(content));
    }
    const key = property !== '' ? property : name;
    if (key.startsWith('og:')) setFirst(facts.openGraph, OPEN_GRAPH, key.slice(3), content);
    else if (key.startsWith('twitter:')) setFirst(facts.twitter, TWITTER, key.slice(8), content);
  }

  finish(): MetaFacts {
    return this.#facts;
  }

  /** The first in full; every one, shortened, for `descriptions/multiple` to list. */
  #description(content: string, inHead: boolean): void {
    const facts = this.#facts;
    facts.descriptionCount++;
    if (facts.descriptions.length === MAX_INSTANCES) return;
    const text = textFact(content, PAGE_FACT_CAPS.titleText, inHead);
    facts.description ??= text;
    facts.descriptions.push({ ...text, text: shortenInstance(text.text) });
  }
}

function setFirst<K extends string>(into: Record<K, string | null>, keys: readonly K[], key: string, content: string): void {
  if (!(keys as readonly string[]).includes(key) || into[key as K] !== null) return;
  into[key as K] = CollapsedText.of(content, PAGE_FACT_CAPS.titleText).text;
}

function textFact(value: string, cap: number, inHead: boolean): TextFact {
  const text = CollapsedText.of(value, cap);
  return { text: text.text, length: text.length, inHead };
}

function collapse(value: string): string {
  return CollapsedText.of(value, PAGE_FACT_CAPS.metaContent).text;
}

/** The charset parameter of a Content-Type value, as written; null when absent. */
export function charsetOf(contentType: string): string | null {
  const match = /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return match ? (match[1] as string) : null;
}

/** `5; url=/next` → delay 5, target '/next'. Quotes around the URL are allowed, as browsers allow them. */
function parseRefresh(content: string): { content: string; delaySeconds: number | null; target: string | null } {
  const match = /^(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  const delay = match?.[1] !== undefined ? Math.floor(Number(match[1])) : null;
  const target = (match?.[2] ?? '')
    .trim()
    .replace(/^(["'])(.*)\1$/s, '$2')
    .trim();
  return { content, delaySeconds: delay, target: target === '' ? null : target };
}

function describeMeta(attribs: Record<string, string>): string {
  for (const key of ['name', 'property', 'http-equiv', 'charset', 'itemprop']) {
    const value = attribs[key];
    if (value !== undefined) return `meta[${key}=${value.trim().slice(0, 60)}]`;
  }
  return 'meta';
}
