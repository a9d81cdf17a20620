import type { RulePack, StartCrawl } from '@loupe/contract';

/** The validated request as the crawler reads it (stored with the crawl as JSON). */
export interface CrawlOptions {
  url: string;
  mode: 'site' | 'page';
  maxPages: number;
  maxDepth?: number;
  include?: string[];
  exclude?: string[];
  respectRobots: boolean;
  sitemaps: boolean;
  concurrency: number;
  delayMs: number;
  /** Whether links to other sites are checked; off, they are kept and reported as not checked. */
  checkExternalLinks: boolean;
  /** Load each HTML page in the browser too (issue #28); absent in crawls stored before. */
  render?: boolean;
  /** With render, run axe-core on each page; absent in crawls stored before (on). */
  accessibility?: boolean;
  userAgent: string;
  headers: Record<string, string>;
  /** The project's rule packs as they were when the crawl started; its report runs their rules. */
  rulePacks?: RulePackSnapshot[];
}

/** A rule pack as a crawl took it when it started: later edits of the pack do not change the crawl's report. */
export interface RulePackSnapshot {
  id: string;
  name: string;
  pack: RulePack;
}

/** What the crawler sends unless the request names another user agent; robots.txt groups match its first word. */
export const DEFAULT_USER_AGENT = 'LoupeBot/1.0 (+https://github.com/loupe; site audit)';

export function crawlOptions(request: StartCrawl & { url: string }, maxPages: number): CrawlOptions {
  return {
    url: request.url,
    mode: request.mode ?? 'site',
    maxPages,
    maxDepth: request.maxDepth,
    include: request.include,
    exclude: request.exclude,
    respectRobots: request.respectRobots ?? true,
    sitemaps: request.sitemaps ?? true,
    concurrency: request.concurrency ?? 4,
    delayMs: request.delayMs ?? 0,
    checkExternalLinks: request.checkExternalLinks ?? true,
    render: request.render ?? false,
    accessibility: request.accessibility ?? true,
    userAgent: request.userAgent ?? DEFAULT_USER_AGENT,
    headers: request.headers ?? {},
  };
}
