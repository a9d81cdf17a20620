import PQueue from 'p-queue';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Resolve } from '../outbound/address-guard.ts';
import { type GuardedProxy, startGuardedProxy } from './guarded-proxy.ts';
import { type RenderedPage, type RenderOptions, renderPage } from './page-renderer.ts';
import { processTreeMemory } from './process-memory.ts';
import { launchRenderingBrowser, newRenderingContext } from './rendering-browser.ts';
import { RenderingTab } from './rendering-tab.ts';

export interface BrowserPoolOptions {
  executablePath: string;
  /** LOUPE_CRAWL_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Replaces `dns.lookup` (tests). */
  resolve?: Resolve;
  /** Pages rendered at once; DEFAULT_RENDER_CONCURRENCY when not given. */
  concurrency?: number;
  /** A context (cookies, caches, storage) serves this many pages, then a fresh one takes over. */
  pagesPerContext: number;
  /** When Chromium's processes together hold more than this, the browser is restarted between pages. */
  memoryBudgetBytes: number;
  userAgent: string;
}

export interface BrowserPoolStats {
  pages: number;
  contexts: number;
  browserStarts: number;
  /** Tabs opened: a tab renders page after page until its context retires or a page fails in it. */
  tabs: number;
  /** The most Chromium's processes held together, at the checks between pages. */
  peakBrowserBytes: number;
}

/**
 * Pages rendered at once when the operator does not say (LOUPE_RENDER_CONCURRENCY): the best
 * rate measured on issue #28's 2-core machine within its 1.5 GB (bench/README.md, "Rendering").
 */
export const DEFAULT_RENDER_CONCURRENCY = 4;

/**
 * The least time between two readings of the browser's memory. A reading walks every Chromium
 * process's page tables (smaps_rollup): about 50 ms of CPU for a dozen processes.
 */
const MEMORY_CHECK_INTERVAL_MS = 2_000;
const MAX_REFUSED_REMEMBERED = 1000;

/** One context and the pages open in it; it is closed once retired and empty. */
interface ContextLease {
  context: BrowserContext;
  browser: Browser;
  started: number;
  open: number;
  retired: boolean;
}

/**
 * Chromium behind the guarded proxy, shared by the pages of a crawl. Pages run `concurrency`
 * at a time; contexts are recycled every `pagesPerContext` pages so one site's caches and
 * storage never grow without bound; a browser over its memory budget, or one that died, is
 * replaced once its pages are done. A page's failure is that page's result, never the pool's.
 */
export class BrowserPool {
  readonly #options: BrowserPoolOptions;
  readonly #proxy: GuardedProxy;
  readonly #queue: PQueue;
  readonly #refused = new Set<string>();
  #browser: Promise<Browser> | undefined;
  #lease: ContextLease | undefined;
  #restartWanted = false;
  #closed = false;
  #restarting: Promise<void> | undefined;
  #leasing: Promise<void> | undefined;
  #inFlight = 0;
  #idle: (() => void)[] = [];
  /** Tabs between two pages, each of the lease it was opened in. */
  #idleTabs: { tab: RenderingTab; lease: ContextLease }[] = [];
  /** When the memory was last read; the first page's end always reads it. */
  #memoryCheckedAt = Number.NEGATIVE_INFINITY;
  readonly #stats: BrowserPoolStats = { pages: 0, contexts: 0, browserStarts: 0, tabs: 0, peakBrowserBytes: 0 };

  private constructor(options: BrowserPoolOptions, proxy: GuardedProxy) {
    this.#options = options;
    this.#proxy = proxy;
    this.#queue = new PQueue({ concurrency: options.concurrency ?? DEFAULT_RENDER_CONCURRENCY });
  }

  static async start(options: BrowserPoolOptions): Promise<BrowserPool> {
    let pool: BrowserPool | undefined;
    const proxy = await startGuardedProxy({
      allowPrivate: options.allowPrivate,
      ...(options.resolve ? { resolve: options.resolve } : {}),
      onRefused: (target) => {
        if (pool) pool.#rememberRefused(target);
      },
    });
    pool = new BrowserPool(options, proxy);
    return pool;
  }

  stats(): BrowserPoolStats {
    return { ...this.#stats };
  }

  render(url: string, options: RenderOptions): Promise<RenderedPage> {
    return this.#queue.add(() => this.#render(url, options));
  }

  /** Pages still in the browser end with it: a canceled crawl does not wait for their timeouts. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.clear();
    const browser = await this.#browser?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await this.#queue.onIdle();
    await this.#proxy.close();
  }

  async #render(url: string, options: RenderOptions): Promise<RenderedPage> {
    while (this.#restarting) await this.#restarting;
    if (this.#restartWanted) {
      this.#restarting = this.#restart().finally(() => {
        this.#restarting = undefined;
      });
      await this.#restarting;
    }
    // In flight from here: a restart asked for meanwhile waits until this page has its context and is done.
    this.#inFlight += 1;
    let lease: ContextLease | undefined;
    let tab: RenderingTab | undefined;
    try {
      const leased = await this.#leaseContext();
      lease = leased;
      const openTab = async () => {
        tab = await this.#tabIn(leased);
        return tab;
      };
      return await renderPage(openTab, url, options, (requested) => this.#wasRefused(requested));
    } finally {
      this.#inFlight -= 1;
      if (lease) {
        this.#stats.pages += 1;
        lease.open -= 1;
        if (tab?.usable && !lease.retired && lease === this.#lease) this.#idleTabs.push({ tab, lease });
        else await tab?.close();
        if (lease.retired && lease.open === 0) await lease.context.close().catch(() => undefined);
      }
      if (performance.now() - this.#memoryCheckedAt >= MEMORY_CHECK_INTERVAL_MS) await this.#checkMemory();
      if (this.#inFlight === 0) for (const wake of this.#idle.splice(0)) wake();
    }
  }

  /** A page's place in the current context; concurrent callers share one new context when it is used up. */
  async #leaseContext(): Promise<ContextLease> {
    for (;;) {
      const lease = this.#lease;
      if (lease && lease.started < this.#options.pagesPerContext && lease.browser.isConnected()) {
        lease.started += 1;
        lease.open += 1;
        return lease;
      }
      this.#leasing ??= this.#replaceLease(lease).finally(() => {
        this.#leasing = undefined;
      });
      await this.#leasing;
    }
  }

  /** An idle tab of the lease's context, or a new one; tabs of earlier contexts are dropped (their context closes them). */
  async #tabIn(lease: ContextLease): Promise<RenderingTab> {
    for (let idle = this.#idleTabs.pop(); idle; idle = this.#idleTabs.pop()) {
      if (idle.lease === lease && idle.tab.usable) return idle.tab;
      if (!idle.lease.retired) await idle.tab.close();
    }
    this.#stats.tabs += 1;
    return RenderingTab.open(lease.context);
  }

  async #replaceLease(old: ContextLease | undefined): Promise<void> {
    if (old) {
      old.retired = true;
      if (old.open === 0) await old.context.close().catch(() => undefined);
    }
    const browser = await this.#liveBrowser();
    const context = await newRenderingContext(browser, this.#options.userAgent);
    this.#lease = { context, browser, started: 0, open: 0, retired: false };
    this.#stats.contexts += 1;
  }

  /** The browser, started again if it was never started or has died; concurrent callers share one start. */
  async #liveBrowser(): Promise<Browser> {
    for (;;) {
      const current = this.#browser;
      if (!current) break;
      const browser = await current.catch(() => undefined);
      if (browser?.isConnected()) return browser;
      if (this.#browser === current) break;
    }
    this.#lease = undefined;
    if (this.#closed) throw new Error('the browser pool is closed');
    this.#browser = launchRenderingBrowser({ executablePath: this.#options.executablePath, proxyUrl: this.#proxy.url });
    this.#stats.browserStarts += 1;
    return this.#browser;
  }

  async #checkMemory(): Promise<void> {
    this.#memoryCheckedAt = performance.now();
    const bytes = await processTreeMemory(process.pid, /^chrom/);
    this.#stats.peakBrowserBytes = Math.max(this.#stats.peakBrowserBytes, bytes);
    if (bytes > this.#options.memoryBudgetBytes) this.#restartWanted = true;
  }

  /** Waits for the pages in flight, then closes the browser; the next page starts a new one. */
  async #restart(): Promise<void> {
    this.#restartWanted = false;
    if (this.#inFlight > 0) await new Promise<void>((wake) => this.#idle.push(wake));
    const browser = await this.#browser?.catch(() => undefined);
    this.#browser = undefined;
    this.#lease = undefined;
    this.#idleTabs = [];
    await browser?.close().catch(() => undefined);
  }

  #rememberRefused(target: string): void {
    if (this.#refused.size >= MAX_REFUSED_REMEMBERED) this.#refused.clear();
    this.#refused.add(target.replace(/^\[|\](?=:)/g, ''));
  }

  /** The proxy refused a tunnel to this URL's host and port. */
  #wasRefused(requested: string): boolean {
    try {
      const parsed = new URL(requested);
      const port = parsed.port || (parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? '443' : '80');
      return this.#refused.has(`${parsed.hostname.replace(/^\[|\]$/g, '')}:${port}`);
    } catch {
      return false;
    }
  }
}
