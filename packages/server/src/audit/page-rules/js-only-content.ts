/**
 * `indexability/js-only-content` (issue #28): what a browser's JavaScript changed of what
 * search engines read first. Google indexes the raw HTML, queues the page for rendering and
 * indexes the rendered DOM later (if at all), and most other crawlers and link previews never
 * render: whatever differs between the two is seen late, by some, or inconsistently.
 */
import { canonicalTargets } from '../../page-facts/effective-canonical.ts';
import type { PageFacts } from '../../page-facts/page-facts.ts';
import type { Severity } from '../health-score.ts';
import type { AuditedPage, PageRule } from '../rule.ts';
import { internalLinks } from './internal-links.ts';
import { quantity, verdict } from './verdict.ts';

/** audit-checks.md §1: enough rendered words to matter, and more than two thirds of them added by JavaScript. */
const MIN_RENDERED_WORDS = 100;
const WORD_RATIO = 3;
/** Internal links found only after rendering: a few are usual (a cookie banner's policy link), a menu's worth is not. */
const MIN_LINKS_ONLY_RENDERED = 10;
/** Values are quoted in samples up to this many code points, so raw and rendered both fit in one sample. */
const QUOTED_CHARS = 60;

interface Difference {
  /** What differs, as the finding's summary lists it: "title", "robots". */
  part: string;
  sample: string;
  severity: Severity;
}

function quoted(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '(none)';
  const points = [...text];
  return points.length > QUOTED_CHARS ? `'${points.slice(0, QUOTED_CHARS - 1).join('')}…'` : `'${text}'`;
}

/** A text that JavaScript set, changed or removed: a warning. */
function textDifference(part: string, raw: string | null, rendered: string | null): Difference | null {
  if ((raw ?? '') === (rendered ?? '')) return null;
  return { part, sample: `${part}: raw ${quoted(raw)} → rendered ${quoted(rendered)}`, severity: 'warning' };
}

function robotsOf(facts: PageFacts): string {
  const { noindex, nofollow } = facts.robots.meta;
  return `${noindex ? 'noindex' : 'index'}, ${nofollow ? 'nofollow' : 'follow'}`;
}

/**
 * Robots meta changed by JavaScript is an error either way: Google does not render a page
 * whose raw HTML says noindex (so a script cannot lift it), and a noindex added by a script
 * reaches only engines that render. A changed nofollow decides which links are followed.
 */
function robotsDifference(raw: PageFacts, rendered: PageFacts): Difference | null {
  const before = robotsOf(raw);
  const after = robotsOf(rendered);
  if (before === after) return null;
  const severity = raw.robots.meta.noindex !== rendered.robots.meta.noindex ? 'error' : 'warning';
  return { part: 'robots', sample: `robots: raw '${before}' → rendered '${after}'`, severity };
}

/**
 * A canonical that JavaScript replaced is an error: Google's rendering guidance asks that the
 * raw and rendered canonicals agree, since it may act on either. One only added or only
 * removed by a script is a warning: engines that do not render see none, or a stale one.
 */
function canonicalDifference(raw: PageFacts, rendered: PageFacts): Difference | null {
  const before = canonicalTargets(raw).join(' ');
  const after = canonicalTargets(rendered).join(' ');
  if (before === after) return null;
  const severity = before !== '' && after !== '' ? 'error' : 'warning';
  return { part: 'canonical', sample: `canonical: raw ${quoted(before)} → rendered ${quoted(after)}`, severity };
}

function wordDifference(raw: PageFacts, rendered: PageFacts): Difference | null {
  const before = raw.text.wordCount;
  const after = rendered.text.wordCount;
  if (after < MIN_RENDERED_WORDS || before * WORD_RATIO >= after) return null;
  const share = Math.round(((after - before) / after) * 100);
  return {
    part: 'words',
    sample: `words: ${quantity(before, 'word')} in the raw HTML → ${quantity(after, 'word')} rendered (${share}% only after JavaScript)`,
    severity: 'warning',
  };
}

/** Internal link targets a crawler that does not render never finds: a menu's worth, or every one. */
function linkDifference(raw: PageFacts, rendered: PageFacts, page: AuditedPage): Difference | null {
  const before = new Set(internalLinks(raw, page).map((link) => link.url));
  const only = new Set<string>();
  for (const link of internalLinks(rendered, page)) {
    if (link.url !== null && !before.has(link.url)) only.add(link.url);
  }
  if (only.size === 0 || (only.size < MIN_LINKS_ONLY_RENDERED && before.size > 0)) return null;
  const example = only.values().next().value as string;
  return {
    part: 'links',
    sample: `${quantity(only.size, 'internal link')} only after JavaScript, such as ${example}`,
    severity: 'warning',
  };
}

/** Every difference, the ones that matter most first: what decides indexing, then the content and links only a renderer finds. */
function differences(raw: PageFacts, rendered: PageFacts, page: AuditedPage): Difference[] {
  const found = [
    robotsDifference(raw, rendered),
    canonicalDifference(raw, rendered),
    wordDifference(raw, rendered),
    linkDifference(raw, rendered, page),
    textDifference('title', raw.title?.text ?? null, rendered.title?.text ?? null),
    textDifference('description', raw.description?.text ?? null, rendered.description?.text ?? null),
    textDifference('h1', raw.h1Texts[0] ?? null, rendered.h1Texts[0] ?? null),
  ];
  return found.filter((difference) => difference !== null);
}

export const jsOnlyContentRule: PageRule = {
  id: 'indexability/js-only-content',
  category: 'indexability',
  severity: 'warning',
  scope: 'page',
  title: 'JavaScript changes what search engines read',
  explanation:
    'The page as a browser rendered it differs from its raw HTML: text, links, the title or head tags appear only after JavaScript runs. Google indexes the raw HTML first and the rendered page later, and most other crawlers and link previews never run scripts. A robots directive or canonical changed by a script is an error: engines then act on conflicting instructions.',
  fix: 'Render the main content, links, title, description, canonical and robots meta on the server (server-side rendering or pre-rendering), and let scripts only enhance the page. Never set robots or canonical tags from JavaScript.',
  check: (page) => {
    const rendering = page.rendering;
    if (rendering === undefined || !rendering.rendered || page.facts === null) return null;
    const found = differences(rendering.rawFacts, page.facts, page);
    return verdict(
      found.map((difference) => difference.sample),
      {
        detail: `changed by JavaScript: ${found.map((difference) => difference.part).join(', ')}`,
        severity: found.some((difference) => difference.severity === 'error') ? 'error' : undefined,
      },
    );
  },
};
