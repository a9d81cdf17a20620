import { RuleCategory } from '@loupe/contract';
import type { PageFacts } from '../page-facts/page-facts.ts';
import type { Severity } from './health-score.ts';

/** The catalog's twenty categories (audit-checks.md §1), as the contract names them for custom rules too. */
export const ruleCategories = RuleCategory.options;
export type { RuleCategory };

/** What a report shows about a rule, whether it fired or not. */
export interface RuleDefinition {
  /** `category/name`, as in the catalog: `titles/missing`. */
  id: string;
  category: RuleCategory;
  /** The default severity; a finding may escalate it (`redirects/chain` at ≥ 5 hops). */
  severity: Severity;
  /** Overrides the severity's weight in the health score, within [0, 0.9] (`status/access-denied`: 0). */
  weight?: number;
  /** `page`: decided from one response; `site`: needs the other URLs of the crawl. */
  scope: 'page' | 'site';
  /** One line, as a heading: "Title is too long". */
  title: string;
  /** Why it matters, two or three sentences. */
  explanation: string;
  /** What to change, concretely. */
  fix: string;
}

/**
 * One rule firing on one URL (or on the site). Instances are not multiplied into the score:
 * twelve broken links on a page are one finding with `count: 12` and three samples.
 */
export interface Finding {
  ruleId: string;
  /** Set when the instance is worse than the rule's default (an error-level chain). */
  severity?: Severity;
  count: number;
  /** At most three short examples: URLs, element descriptions, values. */
  samples: string[];
  /** One line with the measured value where there is one: "74 characters", "1.4 MB". */
  detail?: string;
}

/** What a page check returns: the finding without its rule id, or null when the rule does not fire. */
export type Verdict = Omit<Finding, 'ruleId'> | null;

/** One crawled internal URL as the page checks see it, right after it was fetched. */
export interface AuditedPage {
  /** The URL crawled (normalized). */
  url: string;
  /** Where a redirect points (its Location, resolved); the URL itself otherwise. */
  finalUrl: string;
  /** The crawl's origin: links to it are internal. */
  origin: string;
  /** Null when no response arrived (`fetchError` says why). */
  status: number | null;
  /** 'timeout', 'blocked-address', 'network: …', 'truncated', …; null on a complete response. */
  fetchError: string | null;
  contentType: string | null;
  /** Response headers, names lower-cased, repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Body bytes as transferred (compressed when Content-Encoding is set). */
  bytes: number;
  /** Time to the response headers, and to the end of the body. */
  ttfbMs: number;
  responseMs: number;
  /** Clicks from the start URL. */
  depth: number;
  /** Facts of a 2xx HTML page; null for every other answer. */
  facts: PageFacts | null;
  /** What the crawl knows beyond this response; absent where a page is checked on its own. */
  context?: CrawlContext;
}

/** What a crawl learnt about the site that a check of one of its pages may compare with. */
export interface CrawlContext {
  /**
   * The site's answer to a path that cannot exist, when it was a 2xx HTML page with words
   * (`status/soft-404`: a page with the same text is the site's error page); null otherwise.
   */
  notFoundProbe: { url: string; textHash: string } | null;
  /**
   * The search engines' robots.txt groups (`*`, Googlebot) that disallow this URL; empty
   * when none does or robots.txt gave no rules (`indexability/noindex-unseen`).
   */
  robotsDisallowedFor: string[];
}

export interface PageRule extends RuleDefinition {
  scope: 'page';
  check(page: AuditedPage): Verdict;
}
