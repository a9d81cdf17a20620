import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CDPSession, Page } from 'playwright-core';

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

// The minified build: 640 KB to send and compile per page instead of axe.source's 1.4 MB.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The same name each time, so V8 finds the code it compiled for the tab's previous page. */
const AXE_SOURCE_URL = 'loupe://axe-core/axe.min.js';

/** `wcag143` → `1.4.3`; level tags (`wcag2aa`) are kept as they are. */
function wcagReference(tag: string): string {
  const criterion = /^wcag(\d)(\d)(\d+)$/.exec(tag);
  return criterion ? `${criterion[1]}.${criterion[2]}.${criterion[3]}` : tag;
}

/**
 * axe-core's violations on the rendered page (the top document; frames are not entered).
 * axe is injected only when asked for, after the page settled, so it never weighs on the
 * page's own metrics. `session` is the page's, with Runtime enabled.
 */
export async function checkAccessibility(page: Page, session: CDPSession): Promise<AccessibilityViolation[]> {
  const compiled = await session.send('Runtime.compileScript', { expression: AXE_SOURCE, sourceURL: AXE_SOURCE_URL, persistScript: true });
  if (!compiled.scriptId) throw new Error(`axe-core did not compile: ${compiled.exceptionDetails?.text ?? 'no script'}`);
  const ran = await session.send('Runtime.runScript', { scriptId: compiled.scriptId });
  if (ran.exceptionDetails) throw new Error(`axe-core did not load: ${ran.exceptionDetails.text}`);
  const results = await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: { run(context: Document, options: object): Promise<{ violations: import('axe-core').Result[] }> };
        }
      ).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], elementRef: false, iframes: false }),
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
