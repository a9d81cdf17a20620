import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { quantity, verdict } from './verdict.ts';

/** squirrelscan's limit; long URLs get cut in results and are hard to share. */
const MAX_URL_LENGTH = 100;
/**
 * A space or a control character. The page URL is stored normalized, where the URL parser
 * has already percent-encoded them, so their escapes are what remains to be seen.
 */
const UNSAFE_CHARACTER = /[\s\x00-\x1f\x7f]|%(?:[01][0-9a-f]|20|7f)/i;

// URL checks look at HTML pages only: a redirect hop or an error URL is not an address
// anyone should index, and its cost falls on other rules.
export const urlRules: readonly PageRule[] = [
  {
    id: 'url/underscore',
    category: 'url',
    severity: 'notice',
    scope: 'page',
    title: 'URL uses underscores',
    explanation:
      'Search engines treat hyphens as word separators but may read words joined by underscores as one word. Hyphenated URLs are also easier to read aloud and type.',
    fix: 'Use hyphens instead of underscores in new URLs; for existing pages, only change them with a 301 redirect from the old address.',
    check: htmlCheck((_facts, page) => (URL.parse(page.url)?.pathname.includes('_') ? verdict([page.url]) : null)),
  },
  {
    id: 'url/unsafe-chars',
    category: 'url',
    severity: 'warning',
    scope: 'page',
    title: 'URL contains spaces, control characters or double slashes',
    explanation:
      'Spaces and control characters must be encoded and often break when a link is copied, shared or typed. A double slash in the path usually comes from a template joining paths wrongly, and can create duplicate copies of a page.',
    fix: 'Use hyphens instead of spaces, remove control characters, and fix the code that builds the path so it never produces "//"; redirect the old URLs.',
    check: htmlCheck((_facts, page) => {
      const problems: string[] = [];
      if (UNSAFE_CHARACTER.test(page.url)) problems.push('space or control character');
      if (URL.parse(page.url)?.pathname.includes('//')) problems.push('// in the path');
      return problems.length === 0 ? null : verdict([page.url], { detail: problems.join(', ') });
    }),
  },
  {
    id: 'url/too-long',
    category: 'url',
    severity: 'notice',
    scope: 'page',
    title: 'URL is very long',
    explanation:
      'URLs over 100 characters are cut off in search results and are hard to read, share or remember. They often carry parameters or folder levels that add nothing.',
    fix: 'Use short, descriptive paths (ideally under 75 characters) with a few keywords; redirect old long URLs to the new ones.',
    check: htmlCheck((_facts, page) =>
      page.url.length > MAX_URL_LENGTH ? verdict([page.url], { detail: quantity(page.url.length, 'character') }) : null,
    ),
  },
];
