import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { verdict } from './verdict.ts';

/** Zooming to at least 200 % is what WCAG 1.4.4 (Resize text) asks for. */
const MIN_MAXIMUM_SCALE = 2;

/** `width=device-width, initial-scale=1` → { width: 'device-width', 'initial-scale': '1' }; keys lower-cased. */
function viewportProperties(content: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const piece of content.split(/[,;]/)) {
    const [key, value = ''] = piece.split('=', 2).map((part) => part.trim());
    if (key) properties.set(key.toLowerCase(), value.toLowerCase());
  }
  return properties;
}

export const mobileRules: readonly PageRule[] = [
  {
    id: 'mobile/viewport-missing',
    category: 'mobile',
    severity: 'warning',
    scope: 'page',
    title: 'Page has no viewport meta tag',
    explanation:
      'Without a viewport tag, phones render the page as a desktop page shrunk to fit the screen, with tiny text. Google indexes the mobile version of pages, so this also affects search.',
    fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the head, and make sure the layout adapts to narrow screens.',
    check: htmlCheck((facts) => {
      const viewport = facts.viewport;
      if (viewport === null) return verdict(['no <meta name="viewport">']);
      if (!viewport.inHead) return verdict(['<meta name="viewport"> in the body'], { detail: 'the viewport tag is outside the head' });
      return viewport.content === '' ? verdict(['content=""'], { detail: 'the viewport tag is empty' }) : null;
    }),
  },
  {
    id: 'mobile/zoom-disabled',
    category: 'mobile',
    severity: 'warning',
    scope: 'page',
    title: 'Viewport stops visitors from zooming',
    explanation:
      'user-scalable=no or a low maximum-scale prevents people from pinching to zoom. Visitors with low vision depend on zoom to read the page.',
    fix: 'Remove user-scalable=no and any maximum-scale below 2 from the viewport tag; width=device-width, initial-scale=1 is enough.',
    check: htmlCheck((facts) => {
      if (facts.viewport === null) return null;
      const properties = viewportProperties(facts.viewport.content);
      const problems: string[] = [];
      const scalable = properties.get('user-scalable');
      if (scalable === 'no' || scalable === '0' || scalable === 'false') problems.push(`user-scalable=${scalable}`);
      const maximum = Number.parseFloat(properties.get('maximum-scale') ?? '');
      if (maximum < MIN_MAXIMUM_SCALE) problems.push(`maximum-scale=${properties.get('maximum-scale')}`);
      return verdict(problems, { detail: problems.join(', ') });
    }),
  },
];
