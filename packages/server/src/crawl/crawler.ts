import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import type { CrawlContext } from '../page-facts/audited-page.ts';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';
import type { RenderedPage } from '../rendering/page-renderer.ts';
import type { CrawlOptions } from './crawl-options.ts';
import type { CrawlPhase, CrawlProgress } from './crawl-progress.ts';
import type { CrawlStore } from './crawl-store.ts';
import type { FetchOutcome } from './fetch-tally.ts';
import type { CrawlUrlRow, DiscoveredUrl, FrontierStore } from './frontier-store.ts';
import { checkHttpTwins } from './http-twin-check.ts';
import { DEFAULT_LINK_CHECKS, LinkCheckPool, type LinkKind } from './link-check-pool.ts';
import { comparableProbe, notFoundProbeUrl, probeNotFound } from './not-found-probe.ts';
import { type FetchedPage, type FetchLimits, fetchPage } from './page-fetcher.ts';
import type { PageHandler } from './page-handler.ts';
import { recordFetchedPage } from './page-record.ts';
import { CrawlRendering, failedRender, isRenderable, type RenderingSettings } from './page-rendering.ts';
import { PageWriter } from './page-writer.ts';
import { robotsFetcher } from './robots-fetch.ts';
import { loadRobots, type RobotsPolicy } from './robots-policy.ts';
import { createScopeFilter, type ScopeFilter } from './scope-filter.ts';
import { MAX_SITEMAP_FILES_KEPT, type SiteFacts } from './site-facts.ts';
import { sitemapFetcher } from './sitemap-fetch.ts';
import { readSitemaps } from './sitemap-reader.ts';

export interface CrawlerDependencies {
  store: CrawlStore;
  frontier: FrontierStore;
  fetcher: GuardedFetcher;
  log: Logger;
  limits: { timeoutMs: number; maxBodyBytes: number; maxRedirects: number; maxCrawlDelayMs: number };
  /** Link checks of a crawl: at most `cap`, and for `budgetMs` after the last page (DEFAULT_LINK_CHECKS when unset). */
  linkChecks?: { cap: number; budgetMs: number };
  /** What is kept of each fetched page besides its response and links: the audit's findings and summary. */
  onPage: PageHandler;
  /** How pages are rendered when a crawl asks for it; a rendering crawl without it fails. */
  rendering?: RenderingSettings;
}

/** How many times a URL answered 429/503 with Retry-After is asked again, and the longest wait honoured. */
const MAX_BACKOFF_ATTEMPTS = 3;
const MAX_RETRY_AFTER_MS = 60_000;
/** How many times a URL whose connection was dropped before any response is asked again before the drop is its answer. */
const MAX_LOST_CONNECTION_RETRIES = 1;
/** Link checks in flight at once across hosts, and to one host of another site. */
const LINK_CHECK_CONCURRENCY = 16;
const LINK_CHECKS_PER_HOST = 2;
/** URLs a crawl remembers having written to its frontier, so as not to write them again. */
const KNOWN_URLS = 50_000;
/** Page URLs claimed from the frontier at once. */
const CLAIM_AHEAD = 32;
/** Progress is counted and reported at most this often. */
const PROGRESS_EVERY_MS = 500;
/** The largest sitemap file read, as received or decompressed (the protocol's own limit is 50 MB). */
const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** https pages whose http:// twin is asked, the start URL first (squirrelscan's 20). */
const HTTP_TWIN_SAMPLE = 20;

/**
 * Crawls one site into the crawl's frontier table (DESIGN.md §8). Everything it learns is
 * written as it goes, never kept as a site in memory, so a crawl stopped by a crash
 * continues from the table: fetched URLs stay done, in-flight ones are fetched again.
 * Returns the number of pages fetched (what is charged).
 */
export class Crawler {
  readonly #d: CrawlerDependencies;

  constructor(dependencies: CrawlerDependencies) {
    this.#d = dependencies;
  }

  /** `onFetched` hears of each page fetched and link checked, for the live page's errors and last requests. */
  async run(
    crawlId: string,
    options: CrawlOptions,
    signal: AbortSignal,
    onProgress: (progress: CrawlProgress) => void,
    onFetched: (outcome: FetchOutcome) => void = () => {},
  ): Promise<number> {
    const fetcher = this.#d.fetcher.withDnsCache();
    let rendering: CrawlRendering | undefined;
    try {
      if (options.render) {
        if (!this.#d.rendering) throw new Error('this server has no browser to render pages with');
        rendering = await CrawlRendering.start(
          this.#d.rendering,
          { userAgent: options.userAgent, accessibility: options.accessibility !== false, maxHtmlChars: this.#d.limits.maxBodyBytes },
          signal,
        );
      }
      return await this.#run(fetcher, crawlId, options, signal, { onProgress, onFetched }, rendering);
    } finally {
      await rendering?.close();
      // Nothing of the crawl waits on it any more; a connection attempt to a silent host would hold close() to its timeout.
      await fetcher.destroy();
    }
  }

  async #run(
    fetcher: GuardedFetcher,
    crawlId: string,
    options: CrawlOptions,
    signal: AbortSignal,
    { onProgress, onFetched }: { onProgress: (progress: CrawlProgress) => void; onFetched: (outcome: FetchOutcome) => void },
    rendering: CrawlRendering | undefined,
  ): Promise<number> {
    const { store, frontier } = this.#d;
    const origin = new URL(options.url).origin;
    // A site crawl queues each redirect target as a URL of its own (each fetched once, the
    // chain rebuilt from the hops); a one-page audit follows them to reach its page.
    const limits: FetchLimits = {
      ...this.#d.limits,
      followRedirects: options.mode === 'page',
      userAgent: options.userAgent,
      headers: options.headers,
    };
    // robots.txt is read even when not obeyed: the robots checks report on it.
    const robotsFile = await loadRobots(
      origin,
      robotsFetcher(fetcher, { userAgent: limits.userAgent, timeoutMs: limits.timeoutMs, signal }),
      limits.userAgent,
    );
    const robots = options.respectRobots ? robotsFile : null;
    const inScope = createScopeFilter({ origin, include: options.include, exclude: options.exclude, maxDepth: options.maxDepth });
    const gapMs = Math.max(options.delayMs, Math.min(robots?.crawlDelayMs() ?? 0, this.#d.limits.maxCrawlDelayMs));

    await frontier.requeueInFlight(crawlId);
    const facts = (await frontier.hasUrls(crawlId))
      ? await store.siteFacts(crawlId)
      : await this.#seed(fetcher, crawlId, options, { robots: robotsFile, inScope }, limits, signal);
    const notFoundProbe = comparableProbe(facts?.notFoundProbe);

    const linkChecks = this.#d.linkChecks ?? DEFAULT_LINK_CHECKS;
    const linkKinds: LinkKind[] = options.checkExternalLinks === false ? ['asset'] : ['asset', 'external'];
    const links = new LinkCheckPool({
      store: frontier,
      fetcher,
      log: this.#d.log,
      crawlId,
      kinds: linkKinds,
      check: { timeoutMs: this.#d.limits.timeoutMs, maxRedirects: this.#d.limits.maxRedirects, userAgent: options.userAgent },
      concurrency: LINK_CHECK_CONCURRENCY,
      perHost: LINK_CHECKS_PER_HOST,
      cap: linkChecks.cap,
      alreadySettled: (await frontier.countDone(crawlId, 'asset')) + (await frontier.countDone(crawlId, 'external')),
      site: { host: new URL(origin).host, gapMs },
      signal,
      onChecked: (url, check) => onFetched({ url, kind: 'link', status: check.status, error: check.error }),
    });
    links.wake();

    const known = new LRUCache<string, true>({ max: KNOWN_URLS });
    const writer = new PageWriter(frontier, crawlId);
    let pages = await frontier.countDone(crawlId, 'page');
    let lastUrl = '';
    // Totals are what the frontier holds now: they grow as pages are read.
    const progress = async (phase: CrawlPhase) => {
      const queued = await frontier.queuedByKind(crawlId);
      const queuedLinks = queued.asset + (linkKinds.includes('external') ? queued.external : 0);
      onProgress({
        phase,
        pages: { done: pages, total: Math.min(options.maxPages, pages + uncounted + queued.page) },
        links: { done: links.settled, total: Math.min(linkChecks.cap, links.settled + links.pending + queuedLinks) },
        lastUrl,
      });
    };
    let lastProgress = 0;
    let nextStartAt = 0;
    const attempts = new Map<string, number>();
    const inFlight = new Set<Promise<void>>();
    // Fetches started but not yet counted as pages: with `pages`, what maxPages bounds.
    let uncounted = 0;

    const handle = async (row: CrawlUrlRow, count: () => void) => {
      if (robots && !robots.isAllowed(row.url)) {
        await frontier.complete(row.id, { fetch_error: 'blocked-by-robots', fetched_at: new Date().toISOString() });
        onFetched({ url: row.url, kind: 'page', status: null, error: 'blocked-by-robots' });
        return;
      }
      const fetched = await fetchPage(fetcher, row.url, limits, signal);
      // A fetch cut short by cancel or shutdown is not a result: the URL waits for the resume.
      if (signal.aborted) return frontier.requeue(row.id);
      const tries = (attempts.get(row.id) ?? 0) + 1;
      // A wait beyond the longest we honour (an hour's Retry-After) is not waited for: the
      // 429/503 is the URL's answer, and the crawl goes on.
      const waitMs = fetched.retryAfterSeconds === null ? null : fetched.retryAfterSeconds * 1000;
      if (waitMs !== null && waitMs <= MAX_RETRY_AFTER_MS && tries <= MAX_BACKOFF_ATTEMPTS) {
        attempts.set(row.id, tries);
        nextStartAt = Math.max(nextStartAt, Date.now() + waitMs);
        await frontier.requeue(row.id);
        return;
      }
      if (fetched.connectionLost && tries <= MAX_LOST_CONNECTION_RETRIES) {
        attempts.set(row.id, tries);
        await frontier.requeue(row.id);
        return;
      }
      const rendered = rendering && isRenderable(fetched) ? await renderOrFail(rendering, fetched) : undefined;
      // A render cut short by cancel or shutdown is no result either.
      if (signal.aborted) return frontier.requeue(row.id);
      count();
      await this.#record(
        row,
        fetched,
        options,
        { inScope, known, writer },
        { notFoundProbe, robotsDisallowedFor: robotsFile.disallowedForSearchEngines(row.url) },
        rendered,
      );
      links.wake();
      lastUrl = row.url;
      onFetched({ url: row.url, kind: 'page', status: fetched.status, error: fetched.error });
      if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        await progress('pages');
      }
    };

    // Pages claimed from the frontier and not started yet: claiming ahead asks the database
    // once for many fetches, never for more than maxPages leaves room for.
    const ready: CrawlUrlRow[] = [];
    while (!signal.aborted && pages + uncounted < options.maxPages) {
      const room = options.maxPages - pages - uncounted;
      const free = Math.min(options.concurrency - inFlight.size, room);
      if (free > 0 && ready.length === 0)
        ready.push(...(await frontier.claim(crawlId, 'page', gapMs > 0 ? 1 : Math.min(room, Math.max(CLAIM_AHEAD, free)))));
      const batch = free > 0 ? ready.splice(0, gapMs > 0 ? 1 : free) : [];
      if (batch.length === 0) {
        if (inFlight.size === 0) break;
        await Promise.race(inFlight);
        continue;
      }
      for (const row of batch) {
        const wait = nextStartAt - Date.now();
        if (wait > 0) await abortableDelay(wait, signal);
        if (gapMs > 0) nextStartAt = Date.now() + gapMs;
        let counted = false;
        uncounted += 1;
        const count = () => {
          counted = true;
          uncounted -= 1;
          pages += 1;
        };
        const task = handle(row, count).catch((error: unknown) => {
          this.#d.log.error({ err: error, url: row.url }, 'crawl step failed');
        });
        const tracked = task.finally(() => {
          if (!counted) uncounted -= 1;
          inFlight.delete(tracked);
        });
        inFlight.add(tracked);
      }
      if (inFlight.size >= options.concurrency || gapMs > 0) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    for (const row of ready) await frontier.requeue(row.id);
    // Each hop was fetched on its own: only now is it known where a chain leads.
    if (!signal.aborted && options.mode === 'site') await frontier.markBrokenRedirectChains(crawlId, this.#d.limits.maxRedirects);
    if (!signal.aborted) {
      await progress('links');
      const ticker = setInterval(() => void progress('links').catch(() => undefined), PROGRESS_EVERY_MS);
      try {
        await links.finish(linkChecks.budgetMs);
      } finally {
        clearInterval(ticker);
      }
      await progress('links');
    }
    if (!signal.aborted && facts) await this.#checkHttpTwins(fetcher, crawlId, options, facts, robots, signal);
    return pages;
  }

  /**
   * `redirects/http-not-redirected`: for an https crawl, the http:// twins of the start URL
   * and of a sample of the pages fetched. Like link checks they are no pages of the crawl
   * and cost no credit; the result joins the site facts.
   */
  async #checkHttpTwins(
    fetcher: GuardedFetcher,
    crawlId: string,
    options: CrawlOptions,
    facts: SiteFacts,
    robots: RobotsPolicy | null,
    signal: AbortSignal,
  ): Promise<void> {
    const start = normalizeUrl(options.url) ?? options.url;
    if (new URL(start).protocol !== 'https:') return;
    const fetched = await this.#d.frontier.htmlPageUrls(crawlId, HTTP_TWIN_SAMPLE);
    const sample = [start, ...fetched.filter((url) => url !== start && url.startsWith('https:'))]
      .filter((url) => robots === null || robots.isAllowed(url))
      .slice(0, HTTP_TWIN_SAMPLE);
    if (sample.length === 0) return;
    facts.httpTwins = await checkHttpTwins(fetcher, sample, { timeoutMs: this.#d.limits.timeoutMs, userAgent: options.userAgent, signal });
    if (!signal.aborted) await this.#d.store.setSiteFacts(crawlId, facts);
  }

  async #seed(
    fetcher: GuardedFetcher,
    crawlId: string,
    options: CrawlOptions,
    site: { robots: RobotsPolicy; inScope: ScopeFilter },
    limits: FetchLimits,
    signal: AbortSignal,
  ): Promise<SiteFacts> {
    const { robots, inScope } = site;
    const start = normalizeUrl(options.url) ?? options.url;
    const origin = new URL(start).origin;
    // The start URL keeps depth 0; its source says whether a sitemap lists it too.
    const seeds: DiscoveredUrl[] = [{ url: start, depth: 0, kind: 'page', source: 'start' }];
    const facts: SiteFacts = {
      robots: {
        url: robots.url,
        status: robots.status,
        httpStatus: robots.httpStatus,
        blocksAll: robots.blocksAll,
        problems: robots.problems,
      },
      sitemaps: null,
    };
    if (options.mode === 'site' && options.sitemaps) {
      const listed = robots.sitemaps();
      const tried = listed.length > 0 ? listed : [`${origin}/sitemap.xml`];
      const fetchFile = sitemapFetcher(fetcher, {
        userAgent: limits.userAgent,
        timeoutMs: limits.timeoutMs,
        maxBytes: SITEMAP_MAX_BYTES,
        signal,
      });
      const result = await readSitemaps(tried, fetchFile, {
        maxUrls: Math.max(options.maxPages * 2, 1000),
        maxFiles: 200,
        maxBytesPerFile: SITEMAP_MAX_BYTES,
      });
      let otherOriginUrls = 0;
      let outOfScopeUrls = 0;
      // A listed URL is one click from the start, and obeys include, exclude and maxDepth as a link does.
      for (const entry of result.urls) {
        const url = normalizeUrl(entry.loc);
        if (url === start) seeds[0] = { ...seeds[0], source: 'sitemap' };
        else if (!url || new URL(url).origin !== origin) otherOriginUrls += 1;
        else if (inScope(url, 1) === 'ok') seeds.push({ url, depth: 1, kind: 'page', source: 'sitemap' });
        else outOfScopeUrls += 1;
      }
      facts.sitemaps = {
        tried,
        fromRobots: listed.length > 0,
        files: result.files.slice(0, MAX_SITEMAP_FILES_KEPT),
        filesRead: result.files.length,
        listedUrls: result.urls.length,
        otherOriginUrls,
        outOfScopeUrls,
      };
    }
    // `status/soft-404` compares pages with the answer to a path that cannot exist. Asked like
    // any page (robots.txt obeyed, the address guard on every connection), but kept in the
    // facts only: it is no page of the report and costs no credit.
    const probeUrl = notFoundProbeUrl(origin);
    if (!options.respectRobots || robots.isAllowed(probeUrl)) facts.notFoundProbe = await probeNotFound(fetcher, probeUrl, limits, signal);
    await this.#d.store.setSiteFacts(crawlId, facts);
    await this.#d.frontier.discover(crawlId, seeds);
    return facts;
  }

  async #record(
    row: CrawlUrlRow,
    fetched: FetchedPage,
    options: CrawlOptions,
    site: { inScope: ScopeFilter; known: LRUCache<string, true>; writer: PageWriter },
    context: CrawlContext,
    rendered: RenderedPage | undefined,
  ): Promise<void> {
    const page = recordFetchedPage(
      row,
      fetched,
      options,
      site.inScope,
      this.#d.onPage,
      context,
      rendered && { page: rendered, maxChars: this.#d.limits.maxBodyBytes },
    );
    // A site's navigation repeats on every page: URLs this run already wrote are not written
    // again (the frontier's unique key still guards what the cache has forgotten or a resume).
    page.discovered = page.discovered.filter((found) => !site.known.has(found.url));
    await site.writer.write(row.id, page);
    for (const found of page.discovered) site.known.set(found.url, true);
  }
}

/** The browser's answer; a pool that failed under the page (it was closed, it could not start) is that page's error. */
async function renderOrFail(rendering: CrawlRendering, fetched: FetchedPage): Promise<RenderedPage> {
  try {
    return await rendering.render(fetched);
  } catch (error) {
    return failedRender(fetched.finalUrl, `browser: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
