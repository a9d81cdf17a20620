import type { ControlFacts } from '../../page-facts/page-facts.ts';
import type { AuditedPage, PageRule, Verdict } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { quantity, share, verdict } from './verdict.ts';

/**
 * The shape of a BCP 47 language tag (RFC 5646 §2.1): language, then optional script,
 * region, variants, extensions and private use, or a private-use tag alone. The language
 * is limited to the 2–3 letter ISO 639 codes, since no longer subtag has been registered:
 * `english` has the grammar's shape but is not a language tag.
 */
const BCP47 = new RegExp(
  '^(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}' + // language with up to three extended-language subtags
    '(?:-[a-z]{4})?' + // script
    '(?:-(?:[a-z]{2}|\\d{3}))?' + // region
    '(?:-(?:[a-z\\d]{5,8}|\\d[a-z\\d]{3}))*' + // variants
    '(?:-[a-wyz\\d](?:-[a-z\\d]{2,8})+)*' + // extensions
    '(?:-x(?:-[a-z\\d]{1,8})+)?' + // private use
    '|x(?:-[a-z\\d]{1,8})+)$', // a private-use tag on its own
  'i',
);

/**
 * For the checks axe-core also makes on a rendered page (its html-has-lang, html-lang-valid,
 * link-name, button-name, label and frame-title; axe-rules.ts): once axe ran, its findings win
 * and these step aside. axe reads the DOM a browser built and computes accessible names as
 * browsers do (aria-labelledby, hidden content, text that scripts add), and names each element
 * by CSS selector. `duplicate-id` stays: axe deprecated its own and does not run it.
 */
function unlessAxeRan(check: (page: AuditedPage) => Verdict): (page: AuditedPage) => Verdict {
  return (page) => (page.rendering?.accessibility ? null : check(page));
}

function failingControls(controls: ControlFacts, noun: string) {
  return verdict(controls.failing.instances, {
    count: controls.failing.count,
    detail: share(controls.failing.count, controls.count, noun),
  });
}

export const accessibilityRules: readonly PageRule[] = [
  {
    id: 'accessibility-basic/html-lang-missing',
    category: 'accessibility-basic',
    severity: 'warning',
    scope: 'page',
    title: 'Page does not declare its language',
    explanation:
      'The lang attribute on <html> tells screen readers which voice and pronunciation to use, and helps browsers offer translation. Without it, a French page may be read out with English pronunciation.',
    fix: 'Add the page\'s language to the html element, for example <html lang="en"> or <html lang="fr-CA">.',
    check: unlessAxeRan(htmlCheck((facts) => (facts.htmlLang === null || facts.htmlLang === '' ? verdict(['<html> without lang']) : null))),
  },
  {
    id: 'accessibility-basic/html-lang-invalid',
    category: 'accessibility-basic',
    severity: 'warning',
    scope: 'page',
    title: 'Page language code is invalid',
    explanation:
      'The lang attribute is set, but not to a valid language tag, so screen readers and browsers cannot use it. Typical mistakes are an underscore (en_US) or a language name instead of a code.',
    fix: 'Use a BCP 47 language tag: a two-letter language code, optionally with a region, such as en, en-GB or pt-BR.',
    check: unlessAxeRan(
      htmlCheck((facts) => {
        const lang = facts.htmlLang;
        return lang === null || lang === '' || BCP47.test(lang) ? null : verdict([lang], { detail: `lang="${lang}"` });
      }),
    ),
  },
  {
    id: 'accessibility-basic/link-no-name',
    category: 'accessibility-basic',
    severity: 'warning',
    scope: 'page',
    title: 'Links have no accessible name',
    explanation:
      'A link with no text, such as an icon without a label or an image without alt text, is announced by screen readers as just "link". Nobody relying on one can tell where it goes.',
    fix: 'Give each link visible text, alt text on the image inside it, or an aria-label that says where it leads.',
    check: unlessAxeRan(
      htmlCheck((facts) => {
        // Scripting is on for visitors, so links inside <noscript> are never announced.
        const unnamed = facts.links.filter((link) => !link.named && !link.inNoscript);
        return verdict(unnamed.map((link) => (link.href.trim() === '' ? '<a href="">' : link.href)));
      }),
    ),
  },
  {
    id: 'accessibility-basic/button-no-name',
    category: 'accessibility-basic',
    severity: 'warning',
    scope: 'page',
    title: 'Buttons have no accessible name',
    explanation:
      'A button with no text or label, typically an icon button, is announced as just "button". Screen-reader users cannot tell what it does.',
    fix: 'Give each button visible text, or an aria-label describing its action (for example aria-label="Close menu").',
    check: unlessAxeRan(htmlCheck((facts) => failingControls(facts.accessibility.buttons, 'button'))),
  },
  {
    id: 'accessibility-basic/input-no-label',
    category: 'accessibility-basic',
    severity: 'warning',
    scope: 'page',
    title: 'Form fields have no label',
    explanation:
      'Without a label, screen readers cannot say what a field is for, and clicking its text does not focus it. A placeholder is not a label: it disappears as soon as someone types.',
    fix: 'Add a <label for="field-id"> for each field, wrap the field in its <label>, or give it an aria-label.',
    check: unlessAxeRan(htmlCheck((facts) => failingControls(facts.accessibility.controls, 'form field'))),
  },
  {
    id: 'accessibility-basic/iframe-no-title',
    category: 'accessibility-basic',
    severity: 'notice',
    scope: 'page',
    title: 'Embedded frames have no title',
    explanation:
      'Screen readers announce an iframe by its title; without one, users hear only "frame" and must enter it to find out what it holds, for example a video or a map.',
    fix: 'Add a short title attribute to each <iframe> describing its content, such as title="Product demo video".',
    check: unlessAxeRan(
      htmlCheck((facts) => {
        const untitled = facts.iframes.filter((frame) => frame.title === null || frame.title === '');
        return verdict(
          untitled.map((frame) => frame.src ?? '<iframe> without src'),
          { detail: share(untitled.length, facts.iframeCount, 'iframe') },
        );
      }),
    ),
  },
  {
    id: 'accessibility-basic/duplicate-id',
    category: 'accessibility-basic',
    severity: 'notice',
    scope: 'page',
    title: 'Several elements share an id',
    explanation:
      'An id must be unique on the page. When it is not, labels, aria references and in-page links point to the wrong element, and scripts may act on the wrong one.',
    fix: 'Give each element its own id; look for components or templates that are repeated on the page with a hard-coded id.',
    check: htmlCheck((facts) => {
      const duplicates = facts.accessibility.duplicateIds;
      return verdict(duplicates.instances, { count: duplicates.count, detail: `${quantity(duplicates.count, 'id')} used more than once` });
    }),
  },
];
