import { nearestPosition, type TextPosition } from './json-locations.ts';

/** One message of the API about the pack, placed where a person finds it. */
export interface PackProblem {
  /** The API's dotted path, e.g. `pack.rules.2.when.all.1.test.cmp.value`. */
  field: string;
  /** The rule it is about (0-based), when it is about one. */
  ruleIndex?: number;
  /** "Rule 3 · content/thin-pages (Thin page)", or "The pack" for a pack-level field. */
  where: string;
  /** The field inside the rule (or the pack) as written in JSON: `when.all[1].test.cmp.value`; empty for the rule or pack itself. */
  path: string;
  messages: string[];
  /** Where in the JSON: the field itself, or the nearest enclosing value when the field is missing. */
  position?: TextPosition;
  exact: boolean;
}

/** `when.all.1.test` → `when.all[1].test`: the way a JSON path reads. */
export function jsonPath(segments: readonly string[]): string {
  return segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`),
    '',
  );
}

function ruleLabel(pack: unknown, index: number): string {
  const rule = (pack as { rules?: unknown[] } | null)?.rules?.[index] as { id?: unknown; title?: unknown } | undefined;
  const id = typeof rule?.id === 'string' && rule.id !== '' ? ` · ${rule.id}` : '';
  const title = typeof rule?.title === 'string' && rule.title !== '' ? ` (${rule.title})` : '';
  return `Rule ${index + 1}${id}${title}`;
}

/**
 * The API's `details.fieldErrors` about a pack (keys under `pack.`), each with the rule it is
 * about, the field inside that rule, and its line in the editor's JSON. `pack` is the JSON as
 * parsed and `positions` where its values start (json-locations.ts). In rule order, then by field.
 */
export function packProblems(fieldErrors: Record<string, string[]>, pack: unknown, positions: Map<string, TextPosition>): PackProblem[] {
  const problems: PackProblem[] = [];
  for (const [field, messages] of Object.entries(fieldErrors)) {
    if (field !== 'pack' && !field.startsWith('pack.')) continue;
    const inPack = field === 'pack' ? '' : field.slice('pack.'.length);
    const segments = inPack === '' ? [] : inPack.split('.');
    const located = nearestPosition(positions, inPack);
    const base = { field, messages, position: located?.position, exact: located?.exact ?? false };
    if (segments[0] === 'rules' && segments[1] !== undefined && /^\d+$/.test(segments[1])) {
      const ruleIndex = Number(segments[1]);
      problems.push({ ...base, ruleIndex, where: ruleLabel(pack, ruleIndex), path: jsonPath(segments.slice(2)) });
    } else {
      problems.push({ ...base, where: 'The pack', path: jsonPath(segments) });
    }
  }
  return problems.sort(
    (a, b) =>
      (a.ruleIndex ?? -1) - (b.ruleIndex ?? -1) || (a.position?.line ?? 0) - (b.position?.line ?? 0) || a.field.localeCompare(b.field),
  );
}
