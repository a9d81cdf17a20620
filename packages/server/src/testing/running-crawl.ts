import { now } from '../clock.ts';
import type { CrawlOptions } from '../crawl/crawl-options.ts';
import type { CrawlStore } from '../crawl/crawl-store.ts';
import { newId } from '../ids.ts';

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
