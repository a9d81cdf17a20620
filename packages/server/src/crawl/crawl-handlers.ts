import type { Handlers } from '../http/handlers.ts';
import { crawlEvents } from './crawl-events.ts';
import type { CrawlService } from './crawl-service.ts';
import type { CrawlStore } from './crawl-store.ts';

type CrawlHandlers = Pick<Handlers, 'startCrawl' | 'estimateCrawl' | 'listCrawls' | 'getCrawl' | 'streamCrawlEvents' | 'cancelCrawl'>;

export function crawlHandlers(crawls: CrawlService, store: CrawlStore): CrawlHandlers {
  return {
    startCrawl: ({ body }, { principal }) => crawls.start(principal, body),
    estimateCrawl: ({ body }, { principal }) => crawls.estimate(principal.workspaceId, body),
    listCrawls: ({ query }, { principal }) => crawls.list(principal, query.status, query),
    getCrawl: ({ params }, { principal }) => crawls.get(principal, params.crawlId),
    streamCrawlEvents: async ({ params }, { principal, signal }) => crawlEvents(store, principal.workspaceId, params.crawlId, signal),
    cancelCrawl: ({ params }, { principal }) => crawls.cancel(principal, params.crawlId),
  };
}
