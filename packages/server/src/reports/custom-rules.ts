import { type RuleError, RulePack } from '@loupe/contract';
import { keptInstances } from '../audit/finding-instances.ts';
import type { Finding, RuleDefinition } from '../audit/rule.ts';
import type { StoredPage } from '../audit/stored-page-store.ts';
import type { RulePackSnapshot } from '../crawl/crawl-options.ts';
import type { CompiledRule } from '../rule-packs/compiled-rule.ts';
import type { RuleBudgets } from '../rule-packs/rule-budgets.ts';
import { compileRulePack } from '../rule-packs/rule-pack-compiler.ts';
import { RuleRun } from '../rule-packs/rule-run.ts';
import { storedPageSubject } from '../rule-packs/stored-page-subject.ts';

/** What bounds a custom rule in a report build: its time on one page, and over the whole build. */
export type ReportRuleBudgets = Pick<RuleBudgets, 'pageMs' | 'reportMs'>;

/**
 * The custom rules a crawl runs, compiled once for its report build. A rule whose id is
 * already taken (by a built-in check added since, or by a rule of an earlier pack of the
 * crawl) is left out rather than mixed with the other's findings. They run on the rule
 * threads, each within its page budget and its budget for the whole build: a rule stopped is
 * one of the report's rule errors.
 */
export class CustomRules {
  readonly #rules: CompiledRule[];
  readonly #run: RuleRun;

  private constructor(rules: CompiledRule[], budgets: ReportRuleBudgets) {
    this.#rules = rules;
    this.#run = new RuleRun(rules, { purpose: 'report', pageBudgetMs: budgets.pageMs, runBudgetMs: budgets.reportMs });
  }

  static compile(snapshots: readonly RulePackSnapshot[], taken: (id: string) => boolean, budgets: ReportRuleBudgets): CustomRules {
    const rules: CompiledRule[] = [];
    const seen = new Set<string>();
    for (const snapshot of snapshots) {
      for (const rule of compileRulePack(RulePack.parse(snapshot.pack)).rules) {
        const id = rule.definition.id;
        if (taken(id) || seen.has(id)) continue;
        seen.add(id);
        rules.push(rule);
      }
    }
    return new CustomRules(rules, budgets);
  }

  get empty(): boolean {
    return this.#rules.length === 0;
  }

  /** Some rule has a `dom: "rendered"` condition: only then is the rendered DOM read and decompressed. */
  get readsRenderedDom(): boolean {
    return this.#rules.some((rule) => rule.readsRenderedDom);
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

  /** The findings of every rule firing on each page, by page id; the rendered message is the finding's detail. */
  async evaluate(pages: readonly StoredPage[]): Promise<Map<string, Finding[]>> {
    const findings = new Map<string, Finding[]>(pages.map((page) => [page.id, []]));
    const outcomes = await this.#run.evaluate(pages.map(storedPageSubject));
    outcomes.forEach((outcome, index) => {
      const ruleId = (this.#rules[index] as CompiledRule).definition.id;
      for (const fired of outcome.fired) {
        findings.get((pages[fired.page] as StoredPage).id)?.push({
          ruleId,
          count: Math.max(1, fired.evidence?.total ?? 1),
          ...keptInstances(fired.evidence?.samples ?? []),
          ...(fired.message === undefined ? {} : { detail: fired.message }),
        });
      }
    });
    return findings;
  }

  /** The rules stopped so far, in pack order. */
  errors(): RuleError[] {
    return this.#run.errors().filter((error): error is RuleError => error !== null);
  }
}
