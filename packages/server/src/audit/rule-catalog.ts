import { pageRules } from './page-rules/index.ts';
import type { RuleDefinition } from './rule.ts';
import { siteRuleDefinitions } from './site-rules/site-rule-definitions.ts';

/** Every built-in check, page-scope and site-scope, as reports describe them. */
export const ruleCatalog: readonly RuleDefinition[] = [
  ...pageRules.map(({ check: _, ...definition }) => definition),
  ...siteRuleDefinitions,
];

const byId = new Map(ruleCatalog.map((rule) => [rule.id, rule]));

export function findRule(id: string): RuleDefinition | undefined {
  return byId.get(id);
}

export function ruleById(id: string): RuleDefinition {
  const rule = byId.get(id);
  if (!rule) throw new Error(`Unknown audit rule ${id}`);
  return rule;
}
