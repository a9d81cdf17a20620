/**
 * axe-core's checks of a rendered page (issue #28), one catalog rule per axe rule:
 * `accessibility/axe-color-contrast`. The list is read from the axe-core the crawler injects,
 * so an upgrade of axe adds its new rules here by itself; the five that repeat a catalog check
 * (`image-alt` and `images/alt-missing`, …) are left to the catalog. One rule per axe rule (not one `accessibility/axe` for all) lets
 * a report count the pages of each problem and list its elements, as for every other check.
 */
import axe from 'axe-core';
import type { AccessibilityViolation } from '../../rendering/accessibility-check.ts';
import type { Severity } from '../health-score.ts';
import type { PageRule } from '../rule.ts';
import { quantity, verdict } from './verdict.ts';

type Impact = NonNullable<AccessibilityViolation['impact']>;

/**
 * Critical and serious violations of a WCAG criterion are warnings; moderate and minor ones,
 * and every breach of one of axe's best practices (not WCAG requirements), notices. None is an
 * error: Loupe keeps errors (a page's score halved) for pages that fail or cannot be found,
 * and accessibility-basic's checks of the same barriers (an unnamed button is axe-critical)
 * are warnings; a rendering crawl must not make the same button cost three times as much.
 */
function severityOf(impact: Impact | null | undefined, bestPractice: boolean): Severity {
  if (bestPractice) return 'notice';
  return impact === 'critical' || impact === 'serious' ? 'warning' : 'notice';
}
const rank: Readonly<Record<Severity, number>> = { notice: 0, warning: 1, error: 2 };
const IMPACTS: ReadonlySet<string> = new Set<Impact>(['critical', 'serious', 'moderate', 'minor']);

/**
 * axe rules that repeat a check the catalog makes on every crawl, rendered or not: the
 * catalog's stays, so a page's problem costs its score once and reads the same in a crawl
 * with or without rendering.
 */
const CATALOG_CHECKS: Readonly<Record<string, string>> = {
  'document-title': 'titles/missing',
  'page-has-heading-one': 'headings/h1-missing',
  'heading-order': 'headings/skipped-level',
  'image-alt': 'images/alt-missing',
  'meta-viewport': 'mobile/zoom-disabled',
};

export const AXE_RULE_PREFIX = 'accessibility/axe-';

/**
 * Each rule's impact as axe's rule metadata states it. `getRules()` does not give it, so it is
 * read from axe's loaded audit (not a documented API): a WCAG rule whose impact cannot be
 * read is a warning, and axe-rules.test.ts notices the change.
 */
function declaredImpacts(): Map<string, Impact> {
  const audit = (axe as unknown as { _audit?: { rules?: { id?: unknown; impact?: unknown }[] } })._audit;
  const impacts = new Map<string, Impact>();
  for (const rule of audit?.rules ?? []) {
    if (typeof rule.id === 'string' && typeof rule.impact === 'string' && IMPACTS.has(rule.impact)) {
      impacts.set(rule.id, rule.impact as Impact);
    }
  }
  return impacts;
}

/** The Deque page without axe's `?application=axeAPI` marker. */
function helpPage(helpUrl: string): string {
  return helpUrl.replace(/\?application=axeAPI$/, '');
}

/** One line: impact, how many elements, the WCAG criteria and where axe explains the rule. */
function detailOf(violation: AccessibilityViolation): string {
  const parts = [violation.impact ?? 'impact unknown', quantity(violation.elementCount, 'element')];
  if (violation.wcag.length > 0) parts.push(`WCAG ${violation.wcag.join(', ')}`);
  parts.push(helpPage(violation.helpUrl));
  return parts.join(' · ');
}

function axeRule(metadata: axe.RuleMetadata, impact: Impact | undefined): PageRule {
  const id = metadata.ruleId;
  const bestPractice = metadata.tags.includes('best-practice');
  const severity = severityOf(impact ?? 'serious', bestPractice);
  const standard = bestPractice ? 'an accessibility best practice' : 'a WCAG requirement';
  return {
    id: `${AXE_RULE_PREFIX}${id}`,
    category: 'accessibility',
    severity,
    scope: 'page',
    title: metadata.help,
    explanation: `${metadata.description}: ${standard}, checked by axe-core (rule ${id}) on the page as a browser rendered it. Each sample is an offending element, by CSS selector and its markup.`,
    fix: `Fix the listed elements as ${helpPage(metadata.helpUrl)} explains, then crawl again with rendering to confirm.`,
    check: (page) => {
      const violation = page.rendering?.accessibility?.find((candidate) => candidate.rule === id);
      if (violation === undefined) return null;
      const found = violation.impact ? severityOf(violation.impact, bestPractice) : severity;
      return verdict(
        violation.elements.map((element) => `${element.selector}: ${element.html}`),
        {
          count: Math.max(violation.elementCount, violation.elements.length, 1),
          detail: detailOf(violation),
          severity: rank[found] > rank[severity] ? found : undefined,
        },
      );
    },
  };
}

const impacts = declaredImpacts();

/** Every axe-core rule but those the catalog already checks, in axe's (alphabetical) order. */
export const axeRules: readonly PageRule[] = axe
  .getRules()
  .filter((metadata) => !Object.hasOwn(CATALOG_CHECKS, metadata.ruleId))
  .map((metadata) => axeRule(metadata, impacts.get(metadata.ruleId)));
