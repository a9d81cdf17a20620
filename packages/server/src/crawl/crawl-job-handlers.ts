import type { Config } from '../config.ts';
import type { JobServices } from '../jobs/job-handlers.ts';
import type { JobHandlers } from '../jobs/job-queue.ts';
import { type BuildReport, CrawlRunner } from './crawl-runner.ts';
import { CrawlStore } from './crawl-store.ts';
import { Crawler } from './crawler.ts';
import { FrontierStore } from './frontier-store.ts';
import type { PageHandler } from './page-handler.ts';
import type { RenderingSettings } from './page-rendering.ts';

/** Fetch limits of the crawler (DESIGN.md §8): a page is 30 s at most, and 10 MiB of HTML. */
const CRAWL_LIMITS = { timeoutMs: 30_000, maxBodyBytes: 10 * 1024 * 1024, maxRedirects: 10, maxCrawlDelayMs: 10_000 };
/** A browser context (cookies, caches) serves this many pages of a crawl before a fresh one. */
const PAGES_PER_CONTEXT = 50;
const SETTLE_MS = 2_000;

/** A page in the browser gets the config's budget, and 2 s at most to settle after load. */
function renderingSettings(config: Config): RenderingSettings {
  const timeoutMs = config.rendering.timeoutSeconds * 1000;
  return {
    executablePath: config.rendering.executablePath,
    allowPrivate: config.crawlAllowPrivate,
    ...(config.resolve ? { resolve: config.resolve } : {}),
    concurrency: config.rendering.concurrency,
    pagesPerContext: PAGES_PER_CONTEXT,
    memoryBudgetBytes: config.rendering.memoryBudgetBytes,
    timeoutMs,
    settleMs: Math.min(SETTLE_MS, timeoutMs),
  };
}

/** What a crawl does besides fetching, supplied by the composition of the jobs (job-wiring.ts). */
export interface CrawlSteps {
  onPage: PageHandler;
  buildReport: BuildReport;
  /** After the crawl has ended (its alerts); idempotent, since a run after a crash calls it again. */
  afterCrawl: (crawlId: string) => Promise<void>;
}

/** `crawl.run`: one crawl to its end, or, stopped by a shutdown, back to the queue to resume. */
export function crawlJobHandlers(services: JobServices, steps: CrawlSteps): Pick<JobHandlers, 'crawl.run'> {
  const runner = new CrawlRunner({
    database: services.database,
    plans: services.plans,
    log: services.log,
    buildReport: steps.buildReport,
    crawler: new Crawler({
      store: new CrawlStore(services.database),
      frontier: new FrontierStore(services.database),
      fetcher: services.fetcher,
      log: services.log,
      limits: { ...CRAWL_LIMITS, timeoutMs: services.config.crawlTimeoutMs ?? CRAWL_LIMITS.timeoutMs },
      linkChecks: { cap: services.config.linkChecks.cap, budgetMs: services.config.linkChecks.budgetSeconds * 1000 },
      onPage: steps.onPage,
      rendering: renderingSettings(services.config),
    }),
  });
  return {
    'crawl.run': async ({ crawlId }, context) => {
      const outcome = await runner.run(crawlId, context.signal);
      if (outcome === 'skipped' && context.signal.aborted) return { kind: 'released', reason: 'stopped by shutdown; resumes' };
      // Also after a skip: a run after a crash finds the crawl ended, and its alerts maybe not yet made.
      await steps.afterCrawl(crawlId);
      return { kind: 'done' };
    },
  };
}
