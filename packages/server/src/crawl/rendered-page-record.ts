import type { PageLab } from '@loupe/contract';
import type { PageRendering } from '../page-facts/audited-page.ts';
import { extractPageFacts, type PageFacts } from '../page-facts/page-facts.ts';
import type { RenderedPage } from '../rendering/page-renderer.ts';
import type { RecordedPage } from './frontier-store.ts';
import type { FetchedPage } from './page-fetcher.ts';

/** A screenshot larger than this is not kept (the renderer's JPEG of one screen is far smaller). */
export const MAX_SCREENSHOT_BYTES = 512 * 1024;
/** Render-blocking resources listed per page, each URL cut to URL_CHARS: a page of thousands of stylesheets keeps a small row. */
export const MAX_RENDER_BLOCKING = 50;
const URL_CHARS = 2048;

export interface RenderedRecord {
  /** What the page rules read: the rendered DOM's facts, or the raw ones when rendering failed. */
  facts: PageFacts;
  rendering: PageRendering;
  render: NonNullable<RecordedPage['render']>;
}

/**
 * What a crawl keeps of a page the browser loaded. The rendered DOM stands for the page only
 * when it is whole and still the crawled site's: a script that navigated to another origin,
 * or a DOM grown past the crawler's body limit, leaves the raw facts in place and says why.
 */
export function renderedRecord(rendered: RenderedPage, rawFacts: PageFacts, fetched: FetchedPage, maxChars: number): RenderedRecord {
  const problem =
    rendered.error ??
    (rendered.html === null
      ? 'no-dom'
      : new URL(rendered.finalUrl).origin !== new URL(fetched.finalUrl).origin
        ? `navigated-away: ${rendered.finalUrl}`
        : rendered.html.length > maxChars
          ? 'dom-too-large'
          : null);
  const html = problem === null ? (rendered.html as string) : null;
  const lab: PageLab = {
    settled: rendered.settled,
    error: problem,
    durationMs: rendered.durationMs,
    metrics: rendered.metrics && {
      ...rendered.metrics,
      renderBlocking: rendered.metrics.renderBlocking.slice(0, MAX_RENDER_BLOCKING).map((url) => url.slice(0, URL_CHARS)),
    },
    transfer: rendered.transfer,
  };
  const screenshot = rendered.screenshot && rendered.screenshot.length <= MAX_SCREENSHOT_BYTES ? rendered.screenshot : null;
  return {
    facts: html === null ? rawFacts : extractPageFacts(html, rendered.finalUrl, fetched.headers),
    rendering: { rawFacts, rendered: html !== null, lab, accessibility: html === null ? null : rendered.accessibility },
    render: { html, lab, screenshot },
  };
}

/**
 * The links, images, scripts and stylesheets of the rendered page, with those of the raw HTML
 * the rendered DOM no longer holds (a script that replaced a menu): a crawler that reads either
 * version reaches them, so the crawl follows and checks both.
 */
export function withRawOnlyTargets(rendered: PageFacts, raw: PageFacts): PageFacts {
  const missing = <T extends { url: string | null }>(renderedItems: readonly T[], rawItems: readonly T[]): T[] => {
    const seen = new Set(renderedItems.map((item) => item.url));
    return [...renderedItems, ...rawItems.filter((item) => !seen.has(item.url))];
  };
  return {
    ...rendered,
    links: missing(rendered.links, raw.links),
    images: missing(rendered.images, raw.images),
    scripts: missing(rendered.scripts, raw.scripts),
    stylesheets: missing(rendered.stylesheets, raw.stylesheets),
  };
}
