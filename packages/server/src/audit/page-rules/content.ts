import type { PageRule } from '../rule.ts';
import { htmlCheck, rawHtmlCheck } from './html-check.ts';
import { isIndexable } from './indexable.ts';
import { quantity, verdict } from './verdict.ts';

/** audit-checks.md §1: SEOnaut and crawlie both draw the line at 200 visible words (here, of the main content). */
const MIN_WORDS = 200;
/** The WHATWG Encoding Standard's labels for UTF-8. */
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8']);

export const contentRules: readonly PageRule[] = [
  {
    id: 'content/thin',
    category: 'content',
    severity: 'notice',
    scope: 'page',
    title: 'Page has little text',
    explanation:
      'With fewer than 200 words of main content (its text without the navigation, headers, footers and sidebars the site repeats), a page gives search engines little to understand and rank, and may be judged low in value. Pages that are mostly images, forms or navigation are typical.',
    fix: 'Add useful text that answers what a visitor came for, merge the page with a related one, or mark it noindex if it is not meant for search.',
    check: htmlCheck((facts, page) => {
      const words = facts.mainText.wordCount;
      if (words >= MIN_WORDS || !isIndexable(page)) return null;
      return verdict([page.url], { detail: quantity(words, 'word') });
    }),
  },
  {
    id: 'content/charset',
    category: 'content',
    severity: 'notice',
    scope: 'page',
    title: 'Character encoding is missing or not UTF-8',
    explanation:
      'Browsers must know the character encoding before they read the text; if it is missing, declared late or unusual, accented letters and symbols can turn into garbage. UTF-8 is the encoding the web standardised on.',
    fix: 'Save the page as UTF-8 and declare it both in the Content-Type header (text/html; charset=utf-8) and with <meta charset="utf-8"> as the first element of the head.',
    check: rawHtmlCheck((facts) => {
      const { header, meta, metaInFirst1024Bytes } = facts.charset;
      // The header outranks a meta declaration (HTML's encoding sniffing), so it is the one judged.
      const declared = header ?? meta;
      if (declared === null) return verdict(['no charset'], { detail: 'no charset in the Content-Type header or a <meta> tag' });
      if (!UTF8_LABELS.has(declared)) return verdict([declared], { detail: `declared as ${declared}` });
      if (header === null && !metaInFirst1024Bytes) {
        return verdict([`<meta charset="${declared}">`], { detail: 'the <meta> charset comes after the first 1,024 bytes' });
      }
      return null;
    }),
  },
];
