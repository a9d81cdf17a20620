/**
 * The performance checks of a rendering crawl (issue #28), read from the browser's lab reading
 * of the page (`rendering.lab`); performance.ts keeps those of the raw response. Core Web
 * Vitals use Google's published thresholds (web.dev/articles/vitals): past "poor" a warning,
 * between "good" and "poor" a notice. They are one load's lab values, not the 75th percentile
 * of real visits Google ranks on, so none is an error.
 */
import { type LabMetric, type PageLab, type PageLabMetrics, rateLab } from '@loupe/contract';
import type { AuditedPage, PageRule, Verdict } from '../rule.ts';
import { byteSize, quantity, verdict } from './verdict.ts';

/**
 * Lighthouse's "Avoid enormous network payloads" scores below 0.5 past 4,000 KiB (its median
 * control point); the median mobile page of the HTTP Archive weighs about 2 MB.
 */
const HEAVY_PAGE_BYTES = 4_000 * 1024;

/** The lab metrics of a page the browser rendered; undefined otherwise. */
function metricsOf(page: AuditedPage): PageLabMetrics | undefined {
  const rendering = page.rendering;
  return rendering?.rendered ? (rendering.lab.metrics ?? undefined) : undefined;
}

/**
 * A Core Web Vital past its "good" threshold (the contract's labThresholds, which the report's
 * distributions rate by too): a notice, or a warning past "poor".
 */
function vitalCheck(metric: Extract<LabMetric, keyof PageLabMetrics>, describe: (value: number) => string): (page: AuditedPage) => Verdict {
  return (page) => {
    const value = metricsOf(page)?.[metric] ?? null;
    if (value === null) return null;
    const rating = rateLab(metric, value);
    if (rating === 'good') return null;
    return verdict([describe(value)], { detail: describe(value), severity: rating === 'poor' ? 'warning' : undefined });
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The kinds of resource that weigh most, heaviest first: "image 3.1 MiB (41 requests)". */
function heaviestKinds(transfer: PageLab['transfer']): string[] {
  return Object.entries(transfer.byKind)
    .filter(([, sent]) => sent.bytes > 0)
    .sort(([, a], [, b]) => b.bytes - a.bytes)
    .map(([kind, sent]) => `${kind} ${byteSize(sent.bytes)} (${quantity(sent.requests, 'request')})`);
}

export const labPerformanceRules: readonly PageRule[] = [
  {
    id: 'performance/render-failed',
    category: 'performance',
    severity: 'warning',
    scope: 'page',
    title: 'Page failed to render in a browser',
    explanation:
      "A headless browser could not use this page: it ran out of time, the tab crashed, navigation failed, a script sent it to another site, or its DOM grew past the crawl's size limit. Search engines render pages in a similar browser with a similar budget, so content and links that scripts add may never be seen. The page's other checks read its raw HTML instead.",
    fix: 'Open the page with the browser’s developer tools and look for scripts that never finish (endless polling, huge bundles), memory-hungry code, or requests that hang; make the main content appear without waiting on them.',
    check: (page) => {
      const rendering = page.rendering;
      if (rendering === undefined || rendering.rendered) return null;
      const reason = rendering.lab.error ?? 'unknown';
      return verdict([`${reason} after ${quantity(rendering.lab.durationMs, 'ms', 'ms')}`], { detail: reason });
    },
  },
  {
    id: 'performance/slow-lcp',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Largest content appears slowly (LCP)',
    explanation:
      "Largest Contentful Paint is when the page's main image or text block appears: Google counts it good up to 2.5 s and poor beyond 4 s, and uses it as a ranking signal. Measured here in one lab load of the page.",
    fix: 'Make the largest element load early: serve the hero image small and in a modern format with fetchpriority="high" (not lazy-loaded), cut render-blocking CSS and scripts, and answer the HTML faster.',
    check: vitalCheck('lcpMs', (ms) => `LCP ${seconds(ms)}`),
  },
  {
    id: 'performance/layout-shift',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Content shifts while the page loads (CLS)',
    explanation:
      'Cumulative Layout Shift measures how much visible content jumps as images, ads, fonts or late content arrive, making people lose their place or click the wrong thing. Google counts it good up to 0.1 and poor beyond 0.25.',
    fix: 'Give images, videos, iframes and ad slots width and height (or an aspect-ratio), reserve space for content inserted later, and load web fonts with font-display: optional or matched fallbacks.',
    check: vitalCheck('cls', (cls) => `CLS ${cls.toFixed(2)}`),
  },
  {
    id: 'performance/blocking-time',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Scripts block the page from responding (TBT)',
    explanation:
      'Total Blocking Time adds up how long scripts kept the main thread busy after the first paint, when the page cannot react to taps or typing. Lighthouse counts it good up to 200 ms and poor beyond 600 ms; it is the lab stand-in for Interaction to Next Paint.',
    fix: 'Ship less JavaScript (split bundles, drop unused libraries and third-party tags), defer what is not needed at first, and break long tasks into smaller ones.',
    check: vitalCheck('tbtMs', (ms) => `TBT ${quantity(Math.round(ms), 'ms', 'ms')}`),
  },
  {
    id: 'performance/render-blocking',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Resources block the first paint',
    explanation:
      'The browser had to download these stylesheets or scripts before it could show anything. Each one delays the first paint by at least a round trip, more on slow connections.',
    fix: 'Inline the CSS needed for the top of the page and load the rest without blocking (media queries, preload), and give scripts defer or async.',
    check: (page) => {
      const blocking = metricsOf(page)?.renderBlocking ?? [];
      return verdict(blocking, { detail: quantity(blocking.length, 'render-blocking resource') });
    },
  },
  {
    id: 'performance/heavy-page',
    category: 'performance',
    severity: 'notice',
    scope: 'page',
    title: 'Page downloads a lot of data',
    explanation:
      'Loading this page transferred more than 4,000 KiB, twice what the median page weighs. Every visitor pays for it in time, and on metered mobile plans in money.',
    fix: 'Start with the heaviest kind listed: compress and resize images (and lazy-load those below the fold), drop unused scripts and fonts, and stream video only when played.',
    check: (page) => {
      const transfer = page.rendering?.lab.transfer;
      if (transfer === undefined || transfer.bytes <= HEAVY_PAGE_BYTES) return null;
      return verdict(heaviestKinds(transfer), {
        count: 1,
        detail: `${byteSize(transfer.bytes)} in ${quantity(transfer.requests, 'request')}`,
      });
    },
  },
];
