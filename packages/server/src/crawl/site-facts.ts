import type { HttpTwinCheck } from './http-twin-check.ts';
import type { NotFoundProbe } from './not-found-probe.ts';
import type { RobotsProblems } from './robots-lint.ts';
import type { RobotsStatus } from './robots-policy.ts';
import type { SitemapFile } from './sitemap-reader.ts';

/** What the start of a crawl learnt about the site as a whole: the robots and sitemap checks read it. */
export interface SiteFacts {
  robots: {
    url: string;
    status: RobotsStatus;
    httpStatus: number | null;
    blocksAll: boolean;
    /** Lines crawlers cannot use (`robots/invalid`); absent in crawls made before Loupe checked them. */
    problems?: RobotsProblems;
  };
  /** Null when sitemaps were not read (a one-page audit, or `sitemaps: false`). */
  sitemaps: {
    /** The sitemap URLs tried: robots.txt's `Sitemap:` lines, else /sitemap.xml. */
    tried: string[];
    /** Whether robots.txt named them. */
    fromRobots: boolean;
    /** At most MAX_SITEMAP_FILES_KEPT of the files read, in reading order. */
    files: SitemapFile[];
    filesRead: number;
    listedUrls: number;
    /** Listed URLs on another origin than the crawl's (`sitemaps/invalid`). */
    otherOriginUrls: number;
    /** Listed URLs of the site left out by the crawl's include, exclude or maxDepth (absent in crawls made before they were). */
    outOfScopeUrls?: number;
  } | null;
  /**
   * The answer to a path that cannot exist (`status/soft-404`); absent when robots.txt keeps
   * the crawler off it, and in crawls made before Loupe probed.
   */
  notFoundProbe?: NotFoundProbe;
  /** How the http:// twins of an https crawl's pages answered (`redirects/http-not-redirected`); absent for an http crawl. */
  httpTwins?: HttpTwinCheck;
}

export const MAX_SITEMAP_FILES_KEPT = 50;
