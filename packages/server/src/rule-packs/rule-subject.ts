import type { RuleMetric } from '@loupe/contract';

/**
 * One URL as a custom rule sees it. Callers build it from a fetched or stored page; the
 * evaluator never changes it and keeps what it derives (the parsed DOM, lower-cased texts)
 * beside it, so every rule of every pack run on the same subject object shares one parse.
 */
export interface RuleSubject {
  url: string;
  /** Null when no answer arrived (the `failed` status class). */
  status: number | null;
  /** Names lower-cased, repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  contentType: string | null;
  /** The raw HTML of an HTML answer; null otherwise. Rules see at most its first MiB. */
  html: string | null;
  /**
   * The DOM a browser built, serialized, when a rendering crawl rendered the page: what
   * `dom: "rendered"` selector conditions read (at most its first MiB). Absent or null when
   * the page was not rendered, or rendering failed: those conditions are then unknown.
   */
  renderedHtml?: string | null;
  /** The text a reader sees; null when the answer is not an HTML page. */
  visibleText: string | null;
  /** Null when the page has no title (or is not HTML). */
  title: string | null;
  indexable: boolean;
  /** What the crawl measured for this URL; a metric left out makes conditions on it unknown. */
  metrics: Readonly<Partial<Record<RuleMetric, number>>>;
}
