import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { isIndexable } from './indexable.ts';
import { verdict } from './verdict.ts';

export const socialRules: readonly PageRule[] = [
  {
    id: 'social/og-missing',
    category: 'social',
    severity: 'notice',
    scope: 'page',
    title: 'Open Graph tags are missing',
    explanation:
      'When someone shares the page on social networks or in chat apps, the Open Graph title, description and image make up the preview card. Without them the preview is guessed, often with no image.',
    fix: 'Add <meta property="og:title">, <meta property="og:description"> and <meta property="og:image"> (an absolute URL to an image of at least 1200×630) to the head.',
    check: htmlCheck((facts, page) => {
      if (!isIndexable(page)) return null;
      const { title, description, image } = facts.openGraph;
      const missing = Object.entries({ 'og:title': title, 'og:description': description, 'og:image': image })
        .filter(([, value]) => value === null || value === '')
        .map(([name]) => name);
      return verdict(missing, { detail: `missing: ${missing.join(', ')}` });
    }),
  },
  {
    id: 'social/twitter-card-missing',
    category: 'social',
    severity: 'notice',
    scope: 'page',
    title: 'Twitter card tag is missing',
    explanation:
      'X (Twitter) and some other apps read twitter:card to decide how to preview a shared link. Without it, shares show a small plain card instead of a large image.',
    fix: 'Add <meta name="twitter:card" content="summary_large_image"> to the head; the Open Graph tags fill in the rest.',
    check: htmlCheck((facts) => (facts.twitter.card === null || facts.twitter.card === '' ? verdict(['no twitter:card']) : null)),
  },
];
