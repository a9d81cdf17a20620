import type { RobotsStatus } from './robots-policy.ts';
import type { SitemapFile } from './sitemap-reader.ts';

/** What the start of a crawl learnt about the site as a whole: the robots and sitemap checks read it. */
export interface SiteFacts {
  robots: {
    url: string;
    status: RobotsStatus;
    httpStatus: number | null;
    blocksAll: boolean;
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
  } | null;
}

export const MAX_SITEMAP_FILES_KEPT = 50;
