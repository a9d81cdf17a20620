import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { quantity, verdict } from './verdict.ts';

export const headingRules: readonly PageRule[] = [
  {
    id: 'headings/h1-missing',
    category: 'headings',
    severity: 'warning',
    scope: 'page',
    title: 'Page has no H1 heading',
    explanation:
      'The H1 is the visible headline of the page. It tells visitors, screen-reader users and search engines what the page is about at a glance.',
    fix: "Add one <h1> near the top of the main content that states the page's topic in words (not only an image without alt text).",
    check: htmlCheck((facts) => {
      if (facts.h1Texts.some((text) => text !== '')) return null;
      if (facts.h1Count === 0) return verdict(['no <h1>']);
      return verdict(['<h1></h1>'], { detail: `${quantity(facts.h1Count, 'H1')} without text` });
    }),
  },
  {
    id: 'headings/h1-multiple',
    category: 'headings',
    severity: 'notice',
    scope: 'page',
    title: 'Page has more than one H1',
    explanation:
      'Several H1s blur which headline is the main one, for search engines and for screen-reader users who jump between headings. Often a logo or a sidebar title is marked up as H1 by mistake.',
    fix: "Keep one <h1> for the page's main headline and turn the others into <h2> or lower, or into plain styled text.",
    check: htmlCheck((facts) =>
      facts.h1Count > 1 ? verdict(facts.h1Texts, { count: facts.h1Count, detail: quantity(facts.h1Count, 'H1') }) : null,
    ),
  },
  {
    id: 'headings/skipped-level',
    category: 'headings',
    severity: 'notice',
    scope: 'page',
    title: 'Heading levels are skipped',
    explanation:
      'Headings form the outline of the page; jumping from an H2 to an H4 leaves a gap that screen-reader users notice when they navigate by headings. It also usually means a heading level was chosen for its font size.',
    fix: 'Go down one level at a time (H1, then H2, then H3) and change the look with CSS instead of picking a deeper level.',
    check: htmlCheck((facts) => {
      const skips: string[] = [];
      // audit-checks.md §1 starts the walk at level 1, so a page that opens with an h3 has skipped h2.
      let previous = 1;
      for (const heading of facts.headings) {
        if (heading.level > previous + 1) skips.push(`h${previous} → h${heading.level} "${heading.text}"`);
        previous = heading.level;
      }
      return verdict(skips, { detail: quantity(skips.length, 'skip') });
    }),
  },
];
