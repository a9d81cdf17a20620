import { z } from 'zod';
import { Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import { Crawl, CrawlEstimate, CrawlEvent, ListCrawlsQuery, RENDERED_PAGE_CREDITS, StartCrawl } from './crawl.ts';

const CrawlParams = z.strictObject({ crawlId: Id });

export const crawlOperations = [
  defineOperation({
    id: 'startCrawl',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/crawls',
    summary: 'Start a crawl or a URL audit',
    description: `Queues a site crawl (or, with mode page, a one-page audit). Costs one credit per crawled page on a metered plan, ${RENDERED_PAGE_CREDITS} per page when \`render\` is on (an unmetered one, monthlyCredits null, reserves and charges none and never answers 402): maxPages × that credits are reserved now (402 insufficient_credits with \`required\` and \`balance\` if they are not there, nothing charged) and the unused ones released at the end. maxPages defaults to and is clamped to the plan's cap (\`capped\`). Next: poll getCrawl (or stream /crawls/{id}/events) until it ends, then getReport with its reportId.`,
    tag: 'Crawls',
    scopes: ['crawls:write'],
    body: StartCrawl,
    output: Crawl,
    status: 202,
    spendsCredits: true,
    errors: ['insufficient_credits', 'not_found', 'rendering_unavailable'],
  }),
  defineOperation({
    id: 'estimateCrawl',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/crawls/estimate',
    summary: 'Estimate what a crawl would reserve',
    description: `Answers, for the same body as startCrawl, the credits starting it would reserve (maxPages after the plan's cap, one for a page audit, times ${RENDERED_PAGE_CREDITS} when \`render\` is on), the balance and whether it suffices. Starts nothing, free. Next: startCrawl.`,
    tag: 'Crawls',
    scopes: ['crawls:write'],
    body: StartCrawl,
    output: CrawlEstimate,
    errors: ['not_found', 'rendering_unavailable'],
  }),
  defineOperation({
    id: 'listCrawls',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/crawls',
    summary: 'List crawls',
    description: 'Lists the queued and running crawls of the workspace, or those in the given status. Free.',
    tag: 'Crawls',
    scopes: ['reports:read'],
    query: ListCrawlsQuery,
    paged: true,
    output: Crawl,
  }),
  defineOperation({
    id: 'getCrawl',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/crawls/{crawlId}',
    summary: 'Get a crawl',
    description:
      "A crawl's state and progress: status, progress (phase — pages, links, report, done — with done and total for pages and link checks, and their rates), credits, and reportId once the report exists. Free.",
    tag: 'Crawls',
    scopes: ['reports:read'],
    params: CrawlParams,
    output: Crawl,
  }),
  defineOperation({
    id: 'streamCrawlEvents',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/crawls/{crawlId}/events',
    summary: 'Follow a crawl',
    description:
      "Server-sent events of a crawl's progress (`progress`, whenever it changes: the phase, done and total for pages and link checks, rates, and pagesCrawled of maxPages) and state (`status`), starting with its current state and ending when it ends. Free. Agents may poll getCrawl instead.",
    tag: 'Crawls',
    scopes: ['reports:read'],
    params: CrawlParams,
    output: CrawlEvent,
    stream: true,
  }),
  defineOperation({
    id: 'cancelCrawl',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/crawls/{crawlId}/cancel',
    summary: 'Cancel a crawl',
    description:
      'Stops a queued or running crawl. Pages crawled so far are charged and kept in a partial report; the rest of the reservation is released. Canceling an ended crawl changes nothing.',
    tag: 'Crawls',
    scopes: ['crawls:write'],
    params: CrawlParams,
    output: Crawl,
  }),
];
