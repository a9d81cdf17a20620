import { RENDERED_PAGE_CREDITS } from '@loupe/contract';
import type { Logger } from 'pino';
import { now } from '../clock.ts';
import { CreditService } from '../credits/credit-service.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { Plans } from '../plans/plans.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { CrawlProgressRecorder } from './crawl-progress-recorder.ts';
import { type CrawlRow, CrawlStore } from './crawl-store.ts';
import type { Crawler } from './crawler.ts';
import { FrontierStore } from './frontier-store.ts';
import { parseStoredProgress, type StoredCrawlProgress } from './stored-crawl-progress.ts';

/** How often a running crawl looks for a cancel request. */
const CANCEL_POLL_MS = 500;

export type CrawlOutcome = 'completed' | 'canceled' | 'failed' | 'skipped';

/**
 * A crawl's last step, supplied by whoever runs crawls (the reports' builder), so the crawl
 * knows nothing of reports: builds the report of the crawl as it ends, answers its id.
 */
export type BuildReport = (crawl: CrawlRow) => Promise<string>;

/**
 * Runs one crawl job to its end: queued → running → completed | canceled | failed
 * (DESIGN.md §8). Run again after a crash, it continues the same crawl from its frontier;
 * the credits are settled once, in the same transaction that ends the crawl.
 */
export class CrawlRunner {
  readonly #database: Database;
  readonly #plans: Plans;
  readonly #crawler: Pick<Crawler, 'run'>;
  readonly #log: Logger;
  readonly #buildReport: BuildReport;

  constructor(options: { database: Database; plans: Plans; crawler: Pick<Crawler, 'run'>; log: Logger; buildReport: BuildReport }) {
    this.#database = options.database;
    this.#plans = options.plans;
    this.#crawler = options.crawler;
    this.#log = options.log;
    this.#buildReport = options.buildReport;
  }

  async run(crawlId: string, shutdown: AbortSignal): Promise<CrawlOutcome> {
    const store = new CrawlStore(this.#database);
    const row = await store.byId(crawlId);
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return 'skipped';
    if (row.status === 'queued' && !(await store.transition(crawlId, ['queued'], 'running', { started_at: now() }))) return 'skipped';

    const stop = new AbortController();
    const onShutdown = () => stop.abort();
    shutdown.addEventListener('abort', onShutdown, { once: true });
    let canceled = false;
    const poll = setInterval(() => {
      void store.cancelRequested(crawlId).then((requested) => {
        if (requested) {
          canceled = true;
          stop.abort();
        }
      });
    }, CANCEL_POLL_MS);
    // Progress reaches clients through the crawl's row (crawl-events.ts), whichever process runs it.
    const progress = new CrawlProgressRecorder({ store, crawlId, log: this.#log, previous: parseStoredProgress(row.progress) });

    try {
      const options = JSON.parse(row.options) as CrawlOptions;
      await progress.begin();
      const pages = await this.#crawler.run(
        crawlId,
        options,
        stop.signal,
        (reported) => progress.report(reported),
        (outcome) => progress.fetched(outcome),
      );
      // Stopped by shutdown rather than a cancel: leave it running for the next worker to resume.
      if (shutdown.aborted && !canceled) {
        progress.tick();
        progress.stop();
        await progress.flush();
        return 'skipped';
      }
      const outcome = canceled || (await store.cancelRequested(crawlId)) ? 'canceled' : 'completed';
      await progress.buildingReport();
      const reportId = await this.#report(crawlId, outcome);
      await this.#finish(crawlId, outcome, pages, null, reportId, await progress.finish(pages));
      return outcome;
    } catch (error) {
      this.#log.error({ err: error, crawlId }, 'crawl failed');
      await progress.buildingReport();
      const reportId = await this.#report(crawlId, 'failed');
      const pages = await new FrontierStore(this.#database).countDone(crawlId, 'page');
      await this.#finish(crawlId, 'failed', pages, (error as Error).message, reportId, await progress.finish(pages));
      return 'failed';
    } finally {
      progress.stop();
      clearInterval(poll);
      shutdown.removeEventListener('abort', onShutdown);
    }
  }

  /**
   * Builds the report while the crawl is still running, so a crash during the build leaves
   * the crawl to be resumed and the report built again. A canceled or failed crawl keeps a
   * partial report of what it fetched; a report that cannot be built leaves none.
   */
  async #report(crawlId: string, outcome: 'completed' | 'canceled' | 'failed'): Promise<string | null> {
    try {
      const row = await new CrawlStore(this.#database).byId(crawlId);
      if (!row) return null;
      return await this.#buildReport({ ...row, status: outcome });
    } catch (error) {
      this.#log.error({ err: error, crawlId }, 'report build failed');
      return null;
    }
  }

  /** Ends the crawl, its final progress (phase done) and its credits in one transaction. */
  async #finish(
    crawlId: string,
    status: 'completed' | 'canceled' | 'failed',
    pages: number,
    error: string | null,
    reportId: string | null,
    progress: StoredCrawlProgress,
  ) {
    await inTransaction(this.#database, async (transaction) => {
      const store = new CrawlStore(transaction);
      const row = await store.byId(crawlId);
      if (!row) return;
      const crawled = Math.min(pages, row.max_pages);
      // A page the browser loaded costs RENDERED_PAGE_CREDITS, any other URL one; an unmetered
      // crawl reserved nothing and is charged nothing.
      const rendered = await new FrontierStore(transaction).countRendered(crawlId);
      const charged = Math.min(crawled + rendered * (RENDERED_PAGE_CREDITS - 1), row.credits_reserved);
      const moved = await store.transition(crawlId, ['running'], status, {
        finished_at: now(),
        pages_crawled: crawled,
        credits_charged: charged,
        error,
        report_id: reportId,
        progress: JSON.stringify(progress),
      });
      if (moved) await new CreditService(transaction, this.#plans).settle(row.workspace_id, crawlId, row.credits_reserved, charged);
    });
  }
}
