import type { CustomRule } from '@loupe/contract';
import type { CompiledRule } from './compiled-rule.ts';
import { evaluateBatch, type RuleBatch, type RuleBatchAnswer } from './rule-batch.ts';
import { compileRulePack } from './rule-pack-compiler.ts';

/** A batch and its run's rules (which compiled on the event loop before the run began). */
export interface RuleTask {
  batch: RuleBatch;
  rules: CustomRule[];
}

/** Runs this thread has compiled, newest last: a preview or report build sends batch after batch. */
const compiled = new Map<string, CompiledRule[]>();
const KEPT_RUNS = 8;

function rulesOf(runId: string, rules: CustomRule[]): CompiledRule[] {
  let found = compiled.get(runId);
  if (found) {
    compiled.delete(runId);
  } else {
    const pack = { schema: 'loupe.rules/v1' as const, name: runId, rules: rules.map((rule) => ({ ...rule, enabled: true })) };
    found = compileRulePack(pack).rules;
    if (compiled.size >= KEPT_RUNS) compiled.delete(compiled.keys().next().value as string);
  }
  compiled.set(runId, found);
  return found;
}

/** What a rule thread runs (rule-threads.ts). */
export default function evaluate({ batch, rules }: RuleTask): RuleBatchAnswer {
  return evaluateBatch(rulesOf(batch.runId, rules), batch);
}
