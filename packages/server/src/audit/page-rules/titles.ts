import type { PageFacts, TextFact } from '../../page-facts/page-facts.ts';
import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { quantity, verdict } from './verdict.ts';

/** audit-checks.md §1: 30–60 code points, where most search results stop cutting titles short. */
const MIN_LENGTH = 30;
const MAX_LENGTH = 60;

/** Titles in the head; the first is the one browsers and search engines use. */
function headTitles(facts: PageFacts): TextFact[] {
  return facts.titles.filter((title) => title.inHead);
}

export const titleRules: readonly PageRule[] = [
  {
    id: 'titles/missing',
    category: 'titles',
    severity: 'error',
    scope: 'page',
    title: 'Page has no title',
    explanation:
      'The title is the clickable headline of a search result and the name of the browser tab. Without one, search engines make up a title from the page, usually a poor one.',
    fix: "Add a <title> inside the <head> that names the page's subject in 30–60 characters, different on every page.",
    check: htmlCheck((facts) => {
      const title = headTitles(facts)[0];
      if (title === undefined) return verdict(['no <title> in the head']);
      return title.length === 0 ? verdict(['<title></title>'], { detail: 'the title is empty' }) : null;
    }),
  },
  {
    id: 'titles/too-short',
    category: 'titles',
    severity: 'notice',
    scope: 'page',
    title: 'Title is too short',
    explanation:
      'A very short title wastes the most visible line of a search result and rarely tells people enough to choose your page. It also gives search engines little to match queries against.',
    fix: `Write a title of ${MIN_LENGTH}–${MAX_LENGTH} characters that says what the page offers, for example the topic plus your brand.`,
    check: htmlCheck((facts) => {
      const title = headTitles(facts)[0];
      if (title === undefined || title.length === 0 || title.length >= MIN_LENGTH) return null;
      return verdict([title.text], { detail: quantity(title.length, 'character') });
    }),
  },
  {
    id: 'titles/too-long',
    category: 'titles',
    severity: 'warning',
    scope: 'page',
    title: 'Title is too long',
    explanation:
      'Search results cut long titles off, so the end of yours, often the brand, is replaced by an ellipsis. Search engines may also rewrite an overlong title entirely.',
    fix: `Shorten the title to at most ${MAX_LENGTH} characters, putting the most important words first.`,
    check: htmlCheck((facts) => {
      const title = headTitles(facts)[0];
      if (title === undefined || title.length <= MAX_LENGTH) return null;
      return verdict([title.text], { detail: quantity(title.length, 'character') });
    }),
  },
  {
    id: 'titles/multiple',
    category: 'titles',
    severity: 'warning',
    scope: 'page',
    title: 'Page has more than one title',
    explanation:
      'Only the first <title> counts; the others are ignored, so the title you meant may not be the one shown. Several titles usually mean a template and a plugin both add one.',
    fix: 'Keep exactly one <title> in the head and remove the others from your templates or plugins.',
    check: htmlCheck((facts) => {
      if (facts.headTitleCount < 2) return null;
      return verdict(
        headTitles(facts).map((title) => title.text),
        { count: facts.headTitleCount, detail: quantity(facts.headTitleCount, 'title') },
      );
    }),
  },
];
