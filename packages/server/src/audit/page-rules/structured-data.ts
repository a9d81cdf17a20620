import type { PageFacts } from '../../page-facts/page-facts.ts';
import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { type RichResultRequirements, requirementsOf } from './rich-result-requirements.ts';
import { quantity, share, verdict } from './verdict.ts';

/** Bounds on walking a parsed block, which may nest deeply enough to overflow the stack. */
const MAX_DEPTH = 64;
const MAX_NODES = 20_000;

type Node = Record<string, unknown>;

/** Every JSON-LD node of a type we check (`@graph` and nested nodes such as a Product's Offer included). */
function typedNodes(facts: PageFacts): { type: string; requirements: RichResultRequirements; node: Node }[] {
  const found: { type: string; requirements: RichResultRequirements; node: Node }[] = [];
  let visited = 0;
  const visit = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || ++visited > MAX_NODES || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const node = value as Node;
    const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
    for (const type of types) {
      const known = typeof type === 'string' ? requirementsOf(type) : null;
      if (known !== null) found.push({ ...known, node });
    }
    for (const child of Object.values(node)) visit(child, depth + 1);
  };
  for (const block of facts.jsonLd) if (block.error === null) visit(block.value, 0);
  return found;
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return !Array.isArray(value) || value.length > 0;
}

/** One "Event: startDate, location" line per node lacking some of `wanted`, as the check's instances. */
function gaps(facts: PageFacts, wanted: (requirements: RichResultRequirements) => readonly (string | readonly string[])[]): string[] {
  const lines: string[] = [];
  for (const { type, requirements, node } of typedNodes(facts)) {
    const missing = wanted(requirements)
      .filter((property) => (typeof property === 'string' ? !isPresent(node[property]) : !property.some((name) => isPresent(node[name]))))
      .map((property) => (typeof property === 'string' ? property : property.join(' or ')));
    if (missing.length > 0) lines.push(`${type}: ${missing.join(', ')}`);
  }
  return lines;
}

export const structuredDataRules: readonly PageRule[] = [
  {
    id: 'structured-data/invalid-jsonld',
    category: 'structured-data',
    severity: 'error',
    scope: 'page',
    title: 'Structured data cannot be parsed',
    explanation:
      'A <script type="application/ld+json"> block is not valid JSON, so search engines ignore all of it. Any rich result it was meant to earn (stars, prices, breadcrumbs) is lost.',
    fix: "Run the block through a JSON validator or Google's Rich Results Test and fix the syntax, typically a trailing comma, an unescaped quote or a stray HTML entity.",
    check: htmlCheck((facts) => {
      const broken = facts.jsonLd.filter((block) => block.error !== null);
      return verdict(
        broken.map((block) => block.error as string),
        { detail: `${share(broken.length, facts.jsonLdCount, 'JSON-LD block')} invalid` },
      );
    }),
  },
  {
    id: 'structured-data/missing-required',
    category: 'structured-data',
    severity: 'warning',
    scope: 'page',
    title: 'Structured data lacks required properties',
    explanation:
      'Google shows a rich result only when the markup has every property it requires for that type. With one missing, the markup is ignored for rich results.',
    fix: "Add the properties listed for each item, using values that match what the page shows; check the result with Google's Rich Results Test.",
    check: htmlCheck((facts) => {
      const lines = gaps(facts, (requirements) => requirements.required);
      return verdict(lines, { detail: `${quantity(lines.length, 'item')} incomplete` });
    }),
  },
  {
    id: 'structured-data/missing-recommended',
    category: 'structured-data',
    severity: 'notice',
    scope: 'page',
    title: 'Structured data lacks recommended properties',
    explanation:
      'Recommended properties are optional, but they let Google show richer results, such as images, dates or ratings. Filling them in makes the result more informative and more likely to be clicked.',
    fix: 'Add the recommended properties listed for each item where the page has that information.',
    check: htmlCheck((facts) => {
      const lines = gaps(facts, (requirements) => requirements.recommended);
      return verdict(lines, { detail: `${quantity(lines.length, 'item')} could say more` });
    }),
  },
];
