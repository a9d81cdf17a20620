import { resourceKinds } from '@loupe/contract';
import type { Resolve } from '../outbound/address-guard.ts';
import { BrowserPool } from '../rendering/browser-pool.ts';
import type { RenderedPage } from '../rendering/page-renderer.ts';
import type { FetchedPage } from './page-fetcher.ts';

/** How a process renders the pages of crawls that ask for it (issue #28). */
export interface RenderingSettings {
  /** Debian's chromium unless LOUPE_CHROMIUM_PATH names another. */
  executablePath: string;
  allowPrivate: boolean;
  resolve?: Resolve;
  /** Pages of one crawl in the browser at once. */
  concurrency: number;
  pagesPerContext: number;
  memoryBudgetBytes: number;
  /** One page, from navigation to its screenshot. */
  timeoutMs: number;
  /** After load, the longest wait for the network to go quiet. */
  settleMs: number;
}

/** What one crawl asks of its browser. */
export interface CrawlRenderingOptions {
  userAgent: string;
  /** Run axe-core on each page (the crawl's `accessibility`). */
  accessibility: boolean;
  /** The crawler's body limit: a rendered DOM past it is not read. */
  maxHtmlChars: number;
}

/** Whether a fetched page is one the browser should load: a complete 2xx HTML answer. */
export function isRenderable(fetched: FetchedPage): boolean {
  return (
    fetched.html !== null &&
    fetched.error === null &&
    !fetched.truncated &&
    fetched.status !== null &&
    fetched.status >= 200 &&
    fetched.status < 300
  );
}

/**
 * One crawl's browser: started with the crawl (its user agent on every request), closed with
 * it. A crawl's cancel closes it at once, so pages in the browser end then rather than at
 * their timeout.
 */
export class CrawlRendering {
  readonly #pool: BrowserPool;
  readonly #settings: RenderingSettings;
  readonly #crawl: CrawlRenderingOptions;

  private constructor(pool: BrowserPool, settings: RenderingSettings, crawl: CrawlRenderingOptions) {
    this.#pool = pool;
    this.#settings = settings;
    this.#crawl = crawl;
  }

  static async start(settings: RenderingSettings, crawl: CrawlRenderingOptions, signal: AbortSignal): Promise<CrawlRendering> {
    const pool = await BrowserPool.start({
      executablePath: settings.executablePath,
      allowPrivate: settings.allowPrivate,
      ...(settings.resolve ? { resolve: settings.resolve } : {}),
      concurrency: settings.concurrency,
      pagesPerContext: settings.pagesPerContext,
      memoryBudgetBytes: settings.memoryBudgetBytes,
      userAgent: crawl.userAgent,
    });
    const rendering = new CrawlRendering(pool, settings, crawl);
    signal.addEventListener('abort', () => void rendering.close(), { once: true });
    return rendering;
  }

  /** The page as the browser shows it, at the URL the fetch ended on. */
  render(fetched: FetchedPage): Promise<RenderedPage> {
    return this.#pool.render(fetched.finalUrl, {
      timeoutMs: this.#settings.timeoutMs,
      settleMs: this.#settings.settleMs,
      accessibility: this.#crawl.accessibility,
      screenshot: true,
      maxHtmlChars: this.#crawl.maxHtmlChars,
    });
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** A page the browser gave no answer for, with the reason as its error. */
export function failedRender(url: string, error: string): RenderedPage {
  const byKind = Object.fromEntries(resourceKinds.map((kind) => [kind, { requests: 0, bytes: 0 }])) as RenderedPage['transfer']['byKind'];
  return {
    url,
    finalUrl: url,
    status: null,
    html: null,
    settled: false,
    metrics: null,
    transfer: { requests: 0, bytes: 0, byKind, blocked: [], failed: 0 },
    accessibility: null,
    screenshot: null,
    error,
    durationMs: 0,
  };
}
