/**
 * Builds `AuditedPage`s for the page-rule tests from real HTML, through the crawler's own
 * `extractPageFacts`. Not a test file itself (the test glob is `*.test.ts`).
 *
 * `compliantHtml()` is a page on which no rule fires; each test changes one part of it, so
 * what fires is exactly what that test is about.
 */
import { type PageLab, type ResourceKind, resourceKinds } from '@loupe/contract';
import type { PageRendering } from '../../page-facts/audited-page.ts';
import { extractPageFacts } from '../../page-facts/page-facts.ts';
import type { AuditedPage, Verdict } from '../rule.ts';
import { pageRules } from './index.ts';

export const ORIGIN = 'https://example.com';
export const PAGE_URL = 'https://example.com/guides/brewing-tea';

/** Headers of a well-configured https response. */
export const GOOD_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-encoding': 'br',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'content-security-policy': "default-src 'self'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
};

/** A title of 40 and a description of 100 code points: inside both ranges. */
export const GOOD_TITLE = 'How to brew green tea without bitterness';
export const GOOD_DESCRIPTION = 'Water temperature, steeping time and leaf amounts for a smooth cup of green tea, explained by step.';

/** `count` distinct-looking words, for word-count edges. */
export function words(count: number): string {
  return Array.from({ length: count }, (_, i) => `word${i}`).join(' ');
}

export interface HtmlParts {
  /** `null` leaves the attribute out. */
  lang?: string | null;
  title?: string | null;
  description?: string | null;
  /** The canonical href; `null` leaves it out. */
  canonical?: string | null;
  /** Extra markup at the end of the head. */
  head?: string;
  /** Replaces the whole default body (an h1, 250 words and two internal links). */
  body?: string;
  /** Markup added at the end of the default body. */
  extraBody?: string;
}

/** A page every rule passes, with the parts a test wants changed. */
export function compliantHtml(parts: HtmlParts = {}): string {
  const lang = parts.lang === undefined ? 'en' : parts.lang;
  const title = parts.title === undefined ? GOOD_TITLE : parts.title;
  const description = parts.description === undefined ? GOOD_DESCRIPTION : parts.description;
  const canonical = parts.canonical === undefined ? PAGE_URL : parts.canonical;
  const body =
    parts.body ?? `<h1>Brewing green tea</h1><p>${words(250)}</p><a href="/guides/">All guides</a> <a href="/about">About us</a>`;
  return [
    '<!doctype html>',
    lang === null ? '<html>' : `<html lang="${lang}">`,
    '<head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    title === null ? '' : `<title>${title}</title>`,
    description === null ? '' : `<meta name="description" content="${description}">`,
    canonical === null ? '' : `<link rel="canonical" href="${canonical}">`,
    '<meta property="og:title" content="Brewing green tea">',
    '<meta property="og:description" content="A smooth cup, step by step.">',
    '<meta property="og:image" content="https://example.com/tea.jpg">',
    '<meta name="twitter:card" content="summary_large_image">',
    parts.head ?? '',
    `</head><body>${body}${parts.extraBody ?? ''}</body></html>`,
  ].join('');
}

/**
 * A 200 HTML answer for `html`, facts extracted as the crawler would. Overrides apply to
 * the response; `headers` replace GOOD_HEADERS entirely.
 */
export function htmlPage(html: string, overrides: Partial<Omit<AuditedPage, 'facts'>> = {}): AuditedPage {
  const url = overrides.url ?? PAGE_URL;
  const finalUrl = overrides.finalUrl ?? url;
  const headers = overrides.headers ?? GOOD_HEADERS;
  return {
    url,
    finalUrl,
    origin: ORIGIN,
    status: 200,
    fetchError: null,
    contentType: headers['content-type'] ?? 'text/html',
    headers,
    bytes: Math.ceil(Buffer.byteLength(html) / 4),
    ttfbMs: 120,
    responseMs: 180,
    depth: 1,
    ...overrides,
    facts: extractPageFacts(html, finalUrl, headers),
  };
}

/** `compliantHtml(parts)` as a page. */
export function compliantPage(parts: HtmlParts = {}, overrides: Partial<Omit<AuditedPage, 'facts'>> = {}): AuditedPage {
  return htmlPage(compliantHtml(parts), overrides);
}

/** A transfer's `byKind`: the kinds given, nothing for the others. */
export function byKind(sent: Partial<Record<ResourceKind, { requests: number; bytes: number }>>): PageLab['transfer']['byKind'] {
  return Object.fromEntries(resourceKinds.map((kind) => [kind, sent[kind] ?? { requests: 0, bytes: 0 }])) as PageLab['transfer']['byKind'];
}

/** A lab reading on which no lab rule fires: fast, stable, light, nothing render-blocking. */
export function goodLab(overrides: Partial<PageLab> = {}): PageLab {
  return {
    settled: true,
    error: null,
    durationMs: 1_400,
    metrics: { lcpMs: 1_200, fcpMs: 800, cls: 0.02, tbtMs: 40, longTasks: 1, ttfbMs: 110, renderBlocking: [] },
    transfer: { requests: 12, bytes: 480_000, byKind: byKind({ document: { requests: 1, bytes: 20_000 } }), blocked: [], failed: 0 },
    ...overrides,
  };
}

/**
 * A page of a rendering crawl: `facts` from `renderedHtml` (from the raw HTML when
 * `rendering.rendered` is false, as the crawler does when rendering fails), `rawFacts` from
 * `rawHtml`. By default it rendered with a good lab reading and axe did not run.
 */
export function renderedPage(
  rawHtml: string,
  renderedHtml: string = rawHtml,
  rendering: Partial<Omit<PageRendering, 'rawFacts'>> = {},
  overrides: Partial<Omit<AuditedPage, 'facts' | 'rendering'>> = {},
): AuditedPage {
  const raw = htmlPage(rawHtml, overrides);
  const rendered = rendering.rendered ?? true;
  return {
    ...raw,
    facts: rendered ? extractPageFacts(renderedHtml, raw.finalUrl, raw.headers) : raw.facts,
    rendering: {
      rawFacts: raw.facts as NonNullable<AuditedPage['facts']>,
      rendered,
      lab: rendering.lab ?? goodLab(),
      accessibility: rendering.accessibility ?? null,
    },
  };
}

/** An answer without HTML facts: an error, a redirect, a failed fetch, an asset. */
export function responsePage(overrides: Partial<AuditedPage>): AuditedPage {
  return {
    url: PAGE_URL,
    finalUrl: PAGE_URL,
    origin: ORIGIN,
    status: 200,
    fetchError: null,
    contentType: 'text/html; charset=utf-8',
    headers: {},
    bytes: 512,
    ttfbMs: 120,
    responseMs: 180,
    depth: 1,
    facts: null,
    ...overrides,
  };
}

/** Runs one rule, by id, on a page. */
export function check(ruleId: string, page: AuditedPage): Verdict {
  const rule = pageRules.find((candidate) => candidate.id === ruleId);
  if (rule === undefined) throw new Error(`no page rule ${ruleId}`);
  return rule.check(page);
}

/** The ids of every rule that fires on the page. */
export function firing(page: AuditedPage): string[] {
  return pageRules.filter((rule) => rule.check(page) !== null).map((rule) => rule.id);
}
