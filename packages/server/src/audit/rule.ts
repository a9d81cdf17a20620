import { RuleCategory } from '@loupe/contract';
import type { AuditedPage } from '../page-facts/audited-page.ts';
import type { Severity } from './health-score.ts';

/** The catalog's twenty categories (audit-checks.md §1), as the contract names them for custom rules too. */
export const ruleCategories = RuleCategory.options;
export type { AuditedPage, CrawlContext } from '../page-facts/audited-page.ts';
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
 * twelve broken links on a page are one finding with `count: 12`, three samples and nine more.
 */
export interface Finding {
  ruleId: string;
  /** Set when the instance is worse than the rule's default (an error-level chain). */
  severity?: Severity;
  count: number;
  /** At most three short examples: URLs, element descriptions, values. */
  samples: string[];
  /**
   * The instances past the samples, up to MAX_INSTANCES in all (finding-instances.ts); absent
   * when the samples hold them all. Fewer than `count` when the rule counted more than it listed.
   */
  more?: string[];
  /** One line with the measured value where there is one: "74 characters", "1.4 MB". */
  detail?: string;
}

/** What a page check returns: the finding without its rule id, or null when the rule does not fire. */
export type Verdict = Omit<Finding, 'ruleId'> | null;

export interface PageRule extends RuleDefinition {
  scope: 'page';
  check(page: AuditedPage): Verdict;
}
