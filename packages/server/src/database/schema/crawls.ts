import type { Generated } from 'kysely';

export interface CrawlTables {
  crawls: CrawlTable;
  crawl_urls: CrawlUrlTable;
  crawl_links: CrawlLinkTable;
  crawl_hreflangs: CrawlHreflangTable;
  crawl_findings: CrawlFindingTable;
  crawl_page_bodies: CrawlPageBodyTable;
  crawl_page_renders: CrawlPageRenderTable;
}

export interface CrawlTable {
  id: string;
  workspace_id: string;
  project_id: string | null;
  status: string;
  url: string;
  mode: string;
  options: string;
  max_pages: number;
  capped: number;
  pages_crawled: Generated<number>;
  /** The URL fetched last, written with the page count; null before the first. */
  last_url: string | null;
  credits_reserved: number;
  credits_charged: number | null;
  cancel_requested: Generated<number>;
  report_id: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** JSON: robots.txt and sitemap results. */
  site_facts: string | null;
  /** JSON (crawl/stored-crawl-progress.ts): the phase, counts and rates; null while queued. */
  progress: string | null;
}

export interface CrawlUrlTable {
  id: string;
  crawl_id: string;
  url: string;
  url_key: string;
  depth: number;
  /** queued | fetching | done */
  state: string;
  /** page | asset | external */
  kind: string;
  /** How it was found: start | link | sitemap | redirect | image… */
  source: string;
  status_code: number | null;
  final_url: string | null;
  content_type: string | null;
  bytes: number | null;
  response_ms: number | null;
  redirects: string | null;
  fetch_error: string | null;
  fetched_at: string | null;
  /** JSON of the response headers the audit reads. */
  headers: string | null;
  ttfb_ms: number | null;
  /** PageSummary JSON (HTML pages). */
  summary: string | null;
  title_hash: string | null;
  description_hash: string | null;
  text_hash: string | null;
  simhash: string | null;
  lang: string | null;
  word_count: number | null;
  indexable: number | null;
  /** Set by the report build. */
  score: number | null;
  inlinks: number | null;
  error_count: number | null;
  warning_count: number | null;
  notice_count: number | null;
}

export interface CrawlLinkTable {
  crawl_id: string;
  source_id: string;
  target_key: string;
  /** link | image | canonical | hreflang | resource (a script or stylesheet) */
  kind: string;
  /** The anchor text, or an image's alt; null when the element has none (canonical, hreflang, no alt). */
  anchor: string | null;
  /** a | img | link | script; null for links stored before it was kept. */
  element: string | null;
  /** REL_BITS (crawl/frontier-store.ts): nofollow, sponsored, ugc. */
  rel: Generated<number>;
  /** The target's URL when the crawl keeps no row for it (not followed, out of scope). */
  target_url: string | null;
  /** How many times the page names the target as this kind. */
  occurrences: Generated<number>;
  /** The other distinct anchors after `anchor`, as a JSON array of strings; null when there are none. */
  more_anchors: string | null;
}

/** An hreflang annotation of a crawled page (its reference to itself included). */
export interface CrawlHreflangTable {
  crawl_id: string;
  source_id: string;
  target_key: string;
  /** Trimmed and lower-cased. */
  code: string;
}

export interface CrawlFindingTable {
  id: string;
  crawl_id: string;
  url_id: string | null;
  rule_id: string;
  severity: string;
  count: number;
  /** JSON array of strings: the first three instances. */
  samples: string;
  /** JSON array of strings: the instances past the samples (audit/finding-instances.ts); null when there are none. */
  more_instances: string | null;
  detail: string | null;
  /** page (crawler) | site (report build) */
  stage: string;
  share: number | null;
}

/** A crawled HTML page's markup and visible text, each zstd-compressed. */
export interface CrawlPageBodyTable {
  crawl_id: string;
  url_id: string;
  html: Uint8Array;
  text: Uint8Array;
}

export interface CrawlPageRenderTable {
  crawl_id: string;
  url_id: string;
  /** zstd of the rendered DOM; null when the page failed before it could be read. */
  html: Uint8Array | null;
  /** JSON of a PageLab. */
  lab: string;
  /** JPEG of the first screen. */
  screenshot: Uint8Array | null;
}
