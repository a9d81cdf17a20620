import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { quantity, verdict } from './verdict.ts';

/** audit-checks.md §1: 70–160 code points, about what a result snippet shows. */
const MIN_LENGTH = 70;
const MAX_LENGTH = 160;

export const descriptionRules: readonly PageRule[] = [
  {
    id: 'descriptions/missing',
    category: 'descriptions',
    severity: 'warning',
    scope: 'page',
    title: 'Page has no meta description',
    explanation:
      'Search engines often show the meta description as the text under your result. Without one they pick a fragment of the page, which may not persuade anyone to click.',
    fix: `Add <meta name="description" content="…"> to the head with a ${MIN_LENGTH}–${MAX_LENGTH} character summary written for this page.`,
    check: htmlCheck((facts) => {
      const description = facts.description;
      if (description === null) return verdict(['no <meta name="description">']);
      return description.length === 0 ? verdict(['content=""'], { detail: 'the description is empty' }) : null;
    }),
  },
  {
    id: 'descriptions/too-short',
    category: 'descriptions',
    severity: 'notice',
    scope: 'page',
    title: 'Meta description is too short',
    explanation:
      'A one-line description leaves most of the snippet space unused and gives searchers little reason to pick your page. Search engines may replace it with text from the page.',
    fix: `Expand the description to ${MIN_LENGTH}–${MAX_LENGTH} characters: what the page offers and why it is worth a visit.`,
    check: htmlCheck((facts) => {
      const description = facts.description;
      if (description === null || description.length === 0 || description.length >= MIN_LENGTH) return null;
      return verdict([description.text], { detail: quantity(description.length, 'character') });
    }),
  },
  {
    id: 'descriptions/too-long',
    category: 'descriptions',
    severity: 'notice',
    scope: 'page',
    title: 'Meta description is too long',
    explanation:
      'Search results cut the snippet off at about 160 characters, so the rest of the description is never seen. The part that matters may be the part cut off.',
    fix: `Shorten the description to at most ${MAX_LENGTH} characters, with the key message at the start.`,
    check: htmlCheck((facts) => {
      const description = facts.description;
      if (description === null || description.length <= MAX_LENGTH) return null;
      return verdict([description.text], { detail: quantity(description.length, 'character') });
    }),
  },
  {
    id: 'descriptions/multiple',
    category: 'descriptions',
    severity: 'warning',
    scope: 'page',
    title: 'Page has more than one meta description',
    explanation:
      'With several descriptions, search engines may pick any of them, or none. It usually means a theme and an SEO plugin both write one.',
    fix: 'Keep a single <meta name="description"> per page and remove the duplicates from your templates or plugins.',
    check: htmlCheck((facts) => {
      if (facts.descriptionCount < 2) return null;
      return verdict(
        facts.descriptions.map((description) => description.text),
        {
          count: facts.descriptionCount,
          detail: quantity(facts.descriptionCount, 'description'),
        },
      );
    }),
  },
];
