import { pino } from 'pino';
import { auditPage } from '../audit/page-audit.ts';
import { now } from '../clock.ts';
import type { CrawlOptions } from '../crawl/crawl-options.ts';
import type { BuildReport } from '../crawl/crawl-runner.ts';
import { CrawlStore } from '../crawl/crawl-store.ts';
import { Crawler, type CrawlerDependencies } from '../crawl/crawler.ts';
import { FrontierStore } from '../crawl/frontier-store.ts';
import type { Database } from '../database/database.ts';
import { newId } from '../ids.ts';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { buildReport } from '../reports/report-builder.ts';
import { DEFAULT_RULE_BUDGETS } from '../rule-packs/rule-budgets.ts';

/** A crawl row in state running, as the runner leaves it before the crawler starts: what a Crawler test runs on. */
export async function insertRunningCrawl(store: CrawlStore, workspaceId: string, options: CrawlOptions): Promise<string> {
  const id = newId();
  await store.insert({
    id,
    workspace_id: workspaceId,
    project_id: null,
    status: 'running',
    url: options.url,
    mode: options.mode,
    options: JSON.stringify(options),
    max_pages: options.maxPages,
    capped: 0,
    credits_reserved: options.maxPages,
    created_at: now(),
  });
  return id;
}

/** Fetch limits for crawls in tests: short enough that a stuck fetch fails a test quickly. */
export const TEST_CRAWL_LIMITS: CrawlerDependencies['limits'] = {
  timeoutMs: 5_000,
  maxBodyBytes: 2 * 1024 * 1024,
  maxRedirects: 10,
  maxCrawlDelayMs: 50,
};

/** A Crawler on a test's database and fetcher, logging only when LOUPE_TEST_LOG asks; `overrides` replace limits, link checks or rendering. */
export function testCrawler(
  database: Database,
  fetcher: GuardedFetcher,
  overrides: Partial<Pick<CrawlerDependencies, 'limits' | 'linkChecks' | 'rendering'>> = {},
): Crawler {
  return new Crawler({
    store: new CrawlStore(database),
    frontier: new FrontierStore(database),
    fetcher,
    log: pino({ level: process.env.LOUPE_TEST_LOG ?? 'silent' }),
    limits: TEST_CRAWL_LIMITS,
    onPage: auditPage,
    ...overrides,
  });
}

/** The report build a crawl job ends with, as jobs/job-handlers.ts wires it, on the default rule budgets. */
export function testBuildReport(database: Database): BuildReport {
  return (crawl) => buildReport(database, crawl, DEFAULT_RULE_BUDGETS);
}
