import { CollapsedText } from './collapsed-text.ts';
import { MAX_INSTANCES } from './counted-instances.ts';
import { parseLinkHeader } from './link-header.ts';
import { PAGE_FACT_CAPS as CAPS } from './page-fact-caps.ts';
import type {
  FormFact,
  HreflangFact,
  IframeFact,
  ImageFact,
  LinkFact,
  LinkRefFact,
  PageFacts,
  ScriptFact,
  StylesheetFact,
} from './page-facts.ts';
import { type ResolvedRef, resolveRef } from './resolve-ref.ts';
import { parseSrcset } from './srcset.ts';

type ResourceFacts = Pick<
  PageFacts,
  | 'links'
  | 'linkCount'
  | 'images'
  | 'imageCount'
  | 'scripts'
  | 'scriptCount'
  | 'stylesheets'
  | 'stylesheetCount'
  | 'iframes'
  | 'iframeCount'
  | 'forms'
  | 'formCount'
  | 'mixedContent'
  | 'canonicals'
  | 'canonicalCount'
  | 'hreflangs'
  | 'hreflangCount'
>;

/** `<link>` relations a browser fetches, so an http: one is mixed content (canonical, alternate, prev/next are not). */
const FETCHED_RELS = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
  'manifest',
  'preload',
  'modulepreload',
  'prefetch',
]);
/** Elements that load a subresource from an attribute, for `security/mixed-content`. */
const MEDIA_ATTRIBUTES = new Map<string, readonly string[]>([
  ['source', ['src']],
  ['video', ['src', 'poster']],
  ['audio', ['src']],
  ['embed', ['src']],
  ['object', ['data']],
  ['track', ['src']],
  ['input', ['src']],
]);

/**
 * Everything on a page that points at a URL: links, images, scripts, stylesheets, iframes,
 * forms, canonicals, hreflang alternates, media. Targets are kept as written and resolved
 * in `finish`, once the base URL is known: the first `<base href>` governs every URL of the
 * document, even one written before it.
 */
export class PageResources {
  #baseHref: string | null = null;
  readonly #refs: { raw: string; apply: (ref: ResolvedRef) => void; againstPage: boolean }[] = [];
  readonly #facts: ResourceFacts = {
    links: [],
    linkCount: 0,
    images: [],
    imageCount: 0,
    scripts: [],
    scriptCount: 0,
    stylesheets: [],
    stylesheetCount: 0,
    iframes: [],
    iframeCount: 0,
    forms: [],
    formCount: 0,
    mixedContent: { count: 0, items: [] },
    canonicals: [],
    canonicalCount: 0,
    hreflangs: [],
    hreflangCount: 0,
  };
  readonly #selfForms: FormFact[] = [];
  #otherSubresources = 0;
  #pageIsHttps = false;

  /** Records an `<a href>`; returns its fact for the caller to fill in text and name, or null past the cap. */
  link(attribs: Record<string, string>, inNav: boolean, inNoscript: boolean): LinkFact | null {
    const facts = this.#facts;
    facts.linkCount++;
    if (facts.links.length >= CAPS.links) return null;
    const raw = attribs.href as string;
    const fact: LinkFact = {
      href: cut(raw),
      url: null,
      scheme: null,
      samePage: false,
      text: '',
      named: false,
      rel: tokens(attribs.rel),
      role: attribs.role?.trim().toLowerCase() || null,
      inNav,
      inNoscript,
    };
    facts.links.push(fact);
    this.#ref(raw, (ref) => Object.assign(fact, ref));
    return fact;
  }

  image(attribs: Record<string, string>, inNoscript: boolean): void {
    const facts = this.#facts;
    facts.imageCount++;
    if (facts.images.length >= CAPS.images) return;
    const src = attribs.src;
    const fact: ImageFact = {
      src: src === undefined ? null : cut(src),
      url: null,
      alt: attribs.alt === undefined ? null : CollapsedText.of(attribs.alt, CAPS.altText).text,
      width: attribs.width ?? null,
      height: attribs.height ?? null,
      loading: attribs.loading?.trim().toLowerCase() ?? null,
      hasSrcset: attribs.srcset !== undefined,
      srcset: [],
      role: attribs.role?.trim().toLowerCase() || null,
      inNoscript,
    };
    facts.images.push(fact);
    if (src !== undefined && src.trim() !== '') {
      this.#ref(src, (ref) => {
        fact.url = ref.url;
        this.#mixed('img[src]', ref.url);
      });
    }
    for (const candidate of parseSrcset(attribs.srcset ?? '', CAPS.srcsetCandidates)) {
      this.#ref(candidate, (ref) => {
        if (ref.url !== null) fact.srcset.push(ref.url);
        this.#mixed('img[srcset]', ref.url);
      });
    }
  }

  script(attribs: Record<string, string>, kind: ScriptFact['kind'], inHead: boolean): void {
    const facts = this.#facts;
    facts.scriptCount++;
    if (facts.scripts.length >= CAPS.scripts) return;
    const src = attribs.src as string;
    const async = attribs.async !== undefined;
    const defer = attribs.defer !== undefined;
    const fact: ScriptFact = {
      src: cut(src),
      url: null,
      kind,
      async,
      defer,
      inHead,
      blocking: inHead && kind === 'classic' && !async && !defer,
    };
    facts.scripts.push(fact);
    this.#ref(src, (ref) => {
      fact.url = ref.url;
      if (kind !== 'data') this.#mixed('script[src]', ref.url);
    });
  }

  /** The other elements that carry URLs: base, link, iframe, form and media. */
  element(name: string, attribs: Record<string, string>, inHead: boolean): void {
    if (name === 'base') {
      if (this.#baseHref === null && attribs.href !== undefined) this.#baseHref = attribs.href;
    } else if (name === 'link') {
      this.#linkElement(attribs, inHead);
    } else if (name === 'iframe') {
      this.#iframe(attribs);
    } else if (name === 'form') {
      this.#form(attribs);
    } else {
      for (const attribute of MEDIA_ATTRIBUTES.get(name) ?? []) {
        const value = attribs[attribute];
        if (value !== undefined && value.trim() !== '') this.#subresource(`${name}[${attribute}]`, value);
      }
      if (name === 'source' && attribs.srcset !== undefined) {
        for (const candidate of parseSrcset(attribs.srcset, CAPS.srcsetCandidates)) this.#subresource('source[srcset]', candidate);
      }
    }
  }

  finish(
    pageUrl: string,
    headers: Record<string, string | undefined>,
  ): { location: Pick<PageFacts, 'url' | 'baseUrl' | 'baseHref'>; facts: ResourceFacts } {
    const page = URL.parse(pageUrl);
    if (page !== null) page.hash = '';
    const documentUrl = page?.href ?? pageUrl;
    this.#pageIsHttps = page?.protocol === 'https:';
    let base = page;
    if (this.#baseHref !== null) {
      const declared = URL.parse(this.#baseHref.trim(), page ?? undefined);
      if (declared !== null && declared.protocol !== 'data:' && declared.protocol !== 'javascript:') base = declared;
    }
    this.#headerLinks(headers);
    for (const { raw, apply, againstPage } of this.#refs) apply(resolveRef(raw, againstPage ? page : base, documentUrl));
    for (const form of this.#selfForms) form.url = page?.protocol.startsWith('http') ? documentUrl : null;
    return { location: { url: pageUrl, baseUrl: base?.href ?? pageUrl, baseHref: this.#baseHref }, facts: this.#facts };
  }

  /** Resolves a URL the page declares outside the elements above (the meta refresh target). */
  resolveLater(raw: string, apply: (ref: ResolvedRef) => void): void {
    this.#ref(raw, apply);
  }

  #linkElement(attribs: Record<string, string>, inHead: boolean): void {
    const rel = tokens(attribs.rel);
    const href = attribs.href;
    if (href === undefined) return;
    if (rel.includes('canonical')) this.#canonical(href, 'html', inHead);
    if (rel.includes('alternate') && attribs.hreflang !== undefined) this.#hreflang(attribs.hreflang, href, 'html', inHead);
    if (rel.includes('stylesheet')) {
      const facts = this.#facts;
      facts.stylesheetCount++;
      if (facts.stylesheets.length >= CAPS.stylesheets) return;
      const media = attribs.media?.trim() ?? null;
      const fact: StylesheetFact = {
        href: cut(href),
        url: null,
        media,
        inHead,
        blocking: inHead && !rel.includes('alternate') && !/^print$/i.test(media ?? ''),
      };
      facts.stylesheets.push(fact);
      this.#ref(href, (ref) => {
        fact.url = ref.url;
        this.#mixed('link[href]', ref.url);
      });
    } else if (rel.some((token) => FETCHED_RELS.has(token))) {
      this.#subresource('link[href]', href);
    }
  }

  #canonical(href: string, source: LinkRefFact['source'], inHead: boolean): void {
    const facts = this.#facts;
    facts.canonicalCount++;
    if (facts.canonicals.length >= CAPS.canonicals) return;
    const fact: LinkRefFact = { href: cut(href), url: null, absolute: URL.canParse(href.trim()), source, inHead };
    facts.canonicals.push(fact);
    this.#ref(href, (ref) => (fact.url = ref.url), source === 'header');
  }

  #hreflang(lang: string, href: string, source: LinkRefFact['source'], inHead: boolean): void {
    const facts = this.#facts;
    facts.hreflangCount++;
    if (facts.hreflangs.length >= CAPS.hreflangs) return;
    const fact: HreflangFact = { lang: lang.trim(), href: cut(href), url: null, absolute: URL.canParse(href.trim()), source, inHead };
    facts.hreflangs.push(fact);
    this.#ref(href, (ref) => (fact.url = ref.url), source === 'header');
  }

  /** `Link: <…>; rel=canonical` and `rel=alternate; hreflang=…`; relative header targets resolve against the page URL (RFC 8288 §3.2), not `<base>`. */
  #headerLinks(headers: Record<string, string | undefined>): void {
    const value = headerValue(headers, 'link');
    if (value === undefined) return;
    for (const link of parseLinkHeader(value)) {
      if (link.rel.includes('canonical')) this.#canonical(link.href, 'header', true);
      if (link.rel.includes('alternate') && link.params.hreflang !== undefined)
        this.#hreflang(link.params.hreflang, link.href, 'header', true);
    }
  }

  #iframe(attribs: Record<string, string>): void {
    const facts = this.#facts;
    facts.iframeCount++;
    if (facts.iframes.length >= CAPS.iframes) return;
    const src = attribs.src;
    const fact: IframeFact = {
      src: src === undefined ? null : cut(src),
      url: null,
      title: attribs.title === undefined ? null : CollapsedText.of(attribs.title, CAPS.altText).text,
      loading: attribs.loading?.trim().toLowerCase() ?? null,
    };
    facts.iframes.push(fact);
    if (src === undefined || src.trim() === '') return;
    this.#ref(src, (ref) => {
      fact.url = ref.url;
      this.#mixed('iframe[src]', ref.url);
    });
  }

  #form(attribs: Record<string, string>): void {
    const facts = this.#facts;
    facts.formCount++;
    if (facts.forms.length >= CAPS.forms) return;
    const action = attribs.action;
    const fact: FormFact = {
      action: action === undefined ? null : cut(action),
      url: null,
      method: attribs.method?.trim().toLowerCase() || 'get',
    };
    facts.forms.push(fact);
    // An absent or empty action submits to the document's URL (not the base URL); `finish` fills that in.
    if (action === undefined || action.trim() === '') this.#selfForms.push(fact);
    else this.#ref(action, (ref) => (fact.url = ref.url));
  }

  #subresource(source: string, raw: string): void {
    if (this.#otherSubresources++ < CAPS.otherSubresources) this.#ref(raw, (ref) => this.#mixed(source, ref.url));
  }

  #mixed(source: string, url: string | null): void {
    if (!this.#pageIsHttps || url === null || !url.startsWith('http:')) return;
    const mixed = this.#facts.mixedContent;
    mixed.count++;
    if (mixed.items.length < MAX_INSTANCES) mixed.items.push({ source, url });
  }

  #ref(raw: string, apply: (ref: ResolvedRef) => void, againstPage = false): void {
    this.#refs.push({ raw, apply, againstPage });
  }
}

/** A response header by case-insensitive name. */
export function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  if (headers[name] !== undefined) return headers[name];
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function tokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .toLowerCase()
    .split(/\s+/)
    .filter((token) => token !== '');
}

function cut(raw: string): string {
  return raw.length > CAPS.hrefChars ? raw.slice(0, CAPS.hrefChars) : raw;
}
