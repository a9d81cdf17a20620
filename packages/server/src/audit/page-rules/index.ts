/**
 * The page-scope rules of audit-checks.md §1: every check that can be decided from one
 * response. Each category's rules live in the file of that name; the checks of a rendering
 * crawl's lab reading and of axe-core live beside them (lab-performance.ts, axe-rules.ts).
 * This module lists them all and runs them on a page.
 */
import type { AuditedPage, Finding, PageRule, Verdict } from '../rule.ts';
import { accessibilityRules } from './accessibility-basic.ts';
import { axeRules } from './axe-rules.ts';
import { canonicalRules } from './canonical.ts';
import { contentRules } from './content.ts';
import { descriptionRules } from './descriptions.ts';
import { headingRules } from './headings.ts';
import { hreflangRules } from './hreflang.ts';
import { imageRules } from './images.ts';
import { indexabilityRules } from './indexability.ts';
import { labPerformanceRules } from './lab-performance.ts';
import { linkRules } from './links.ts';
import { mobileRules } from './mobile.ts';
import { performanceRules } from './performance.ts';
import { redirectRules } from './redirects.ts';
import { securityRules } from './security.ts';
import { socialRules } from './social.ts';
import { statusRules } from './status.ts';
import { structuredDataRules } from './structured-data.ts';
import { titleRules } from './titles.ts';
import { urlRules } from './url.ts';

/** In the catalog's category order. */
export const pageRules: readonly PageRule[] = [
  ...statusRules,
  ...redirectRules,
  ...indexabilityRules,
  ...titleRules,
  ...descriptionRules,
  ...headingRules,
  ...contentRules,
  ...canonicalRules,
  ...hreflangRules,
  ...linkRules,
  ...imageRules,
  ...performanceRules,
  ...labPerformanceRules,
  ...securityRules,
  ...socialRules,
  ...structuredDataRules,
  ...mobileRules,
  ...accessibilityRules,
  ...axeRules,
  ...urlRules,
];

/**
 * Runs every page rule on one crawled URL. A rule that throws on an unexpected page is
 * skipped for that page: one faulty check must not cost the crawl its other findings.
 */
export function runPageRules(page: AuditedPage): Finding[] {
  const findings: Finding[] = [];
  for (const rule of pageRules) {
    let found: Verdict;
    try {
      found = rule.check(page);
    } catch {
      continue;
    }
    if (found !== null) findings.push({ ruleId: rule.id, ...found });
  }
  return findings;
}
