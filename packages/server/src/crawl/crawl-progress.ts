/**
 * What a running crawl is doing, as the crawler reports it to its runner: the phase, and
 * done and total for pages and link checks. The runner stores it with the crawl (throttled),
 * and the API, events, CLI and dashboard show it; rates are worked out from it there.
 */
export type CrawlPhase = 'pages' | 'links' | 'report';

export interface PhaseCount {
  done: number;
  /** What is known so far: it grows as the crawl discovers more (pages: at most maxPages). */
  total: number;
}

export interface CrawlProgress {
  phase: CrawlPhase;
  pages: PhaseCount;
  /** Asset and external links: checked or settled without a request (a dead host, not checked). */
  links: PhaseCount;
  /** The page fetched last ('' before the first). */
  lastUrl: string;
}
