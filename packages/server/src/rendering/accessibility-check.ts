import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface AccessibilityViolation {
  /** axe's rule id, e.g. `color-contrast`. */
  rule: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  description: string;
  helpUrl: string;
  /** WCAG success criteria (`1.4.3`) and levels (`wcag2aa`) the rule checks, from axe's tags. */
  wcag: string[];
  /** The offending elements, at most MAX_ELEMENTS, each by CSS selector and a cut of its HTML. */
  elements: { selector: string; html: string }[];
  elementCount: number;
}

const MAX_ELEMENTS = 20;
const MAX_HTML = 300;
/** WCAG 2.0–2.2 A and AA, and axe's best practices: what Lighthouse and most auditors run. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** `wcag143` → `1.4.3`; level tags (`wcag2aa`) are kept as they are. */
function wcagReference(tag: string): string {
  const criterion = /^wcag(\d)(\d)(\d+)$/.exec(tag);
  return criterion ? `${criterion[1]}.${criterion[2]}.${criterion[3]}` : tag;
}

/**
 * axe-core's violations on the rendered page (the top document; frames are not entered).
 * axe is injected only when asked for, after the page settled, so it never weighs on the
 * page's own metrics.
 */
export async function checkAccessibility(page: Page): Promise<AccessibilityViolation[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: { run(context: Document, options: object): Promise<{ violations: import('axe-core').Result[] }> };
        }
      ).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], elementRef: false }),
    TAGS,
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? null,
    description: violation.help,
    helpUrl: violation.helpUrl,
    wcag: violation.tags.filter((tag) => tag.startsWith('wcag')).map(wcagReference),
    elements: violation.nodes.slice(0, MAX_ELEMENTS).map((node) => ({
      selector: node.target.map(String).join(' '),
      html: node.html.slice(0, MAX_HTML),
    })),
    elementCount: violation.nodes.length,
  }));
}
