import type { RuleDefinition } from './rule.ts';
import { findRule } from './rule-catalog.ts';

/**
 * The rules one report knows: the built-in catalog, plus the custom rules of the packs its
 * crawl ran. Custom ids never shadow a built-in one (packs refuse such ids when saved).
 */
export class RuleBook {
  static readonly builtIn = new RuleBook([]);
  readonly #custom: Map<string, RuleDefinition>;

  constructor(custom: readonly RuleDefinition[]) {
    this.#custom = new Map(custom.map((rule) => [rule.id, rule]));
  }

  find(id: string): RuleDefinition | undefined {
    return findRule(id) ?? this.#custom.get(id);
  }

  get(id: string): RuleDefinition {
    const rule = this.find(id);
    if (!rule) throw new Error(`Unknown audit rule ${id}`);
    return rule;
  }
}
