import { RulePack } from '@loupe/contract';
import type { RuleDefinition, Finding } from '../audit/rule.ts';
import type { StoredPage } from '../crawl/stored-page-store.ts';
import type { CompiledRule } from '../rule-packs/compiled-rule.ts';
import { evaluateRule } from '../rule-packs/rule-evaluator.ts';
import { compileRulePack } from '../rule-packs/rule-pack-compiler.ts';
import { storedPageSubject } from '../rule-packs/stored-page-subject.ts';

/** A rule pack as a crawl took it when it started: later edits of the pack do not change the crawl's report. */
export interface RulePackSnapshot {
  id: string;
  name: string;
  pack: RulePack;
}

/**
 * The custom rules a crawl runs, compiled once for its report build. A rule whose id is
 * already taken (by a built-in check added since, or by a rule of an earlier pack of the
 * crawl) is left out rather than mixed with the other's findings.
 */
export class CustomRules {
  readonly #rules: CompiledRule[];

  private constructor(rules: CompiledRule[]) {
    this.#rules = rules;
  }

  static compile(snapshots: readonly RulePackSnapshot[], taken: (id: string) => boolean): CustomRules {
    const rules: CompiledRule[] = [];
    const seen = new Set<string>();
    for (const snapshot of snapshots) {
      for (const rule of compileRulePack(RulePack.parse(snapshot.pack), { refuseBuiltInIds: false }).rules) {
        const id = rule.definition.id;
        if (taken(id) || seen.has(id)) continue;
        seen.add(id);
        rules.push(rule);
      }
    }
    return new CustomRules(rules);
  }

  get empty(): boolean {
    return this.#rules.length === 0;
  }

  /** As reports describe rules: custom ones are page-scope, explained by their `help`. */
  definitions(): RuleDefinition[] {
    return this.#rules.map(({ definition: rule }) => ({
      id: rule.id,
      category: rule.category,
      severity: rule.severity,
      ...(rule.weight === undefined ? {} : { weight: rule.weight }),
      scope: 'page',
      title: rule.title,
      explanation: rule.help?.why ?? rule.title,
      fix: rule.help?.fix ?? '',
    }));
  }

  /** The findings of every rule firing on the page; the rendered message is the finding's detail. */
  evaluate(page: StoredPage): Finding[] {
    const subject = storedPageSubject(page);
    const findings: Finding[] = [];
    for (const rule of this.#rules) {
      const result = evaluateRule(rule, subject);
      if (result.outcome !== 'fired') continue;
      findings.push({
        ruleId: rule.definition.id,
        count: Math.max(1, result.evidence?.total ?? 1),
        samples: result.evidence?.samples ?? [],
        ...(result.message === undefined ? {} : { detail: result.message }),
      });
    }
    return findings;
  }
}
