import { RulePack, type RulePackInput } from '@loupe/contract';
import type { CompiledRule } from './compiled-rule.ts';
import { evaluateRule, type RuleEvaluation } from './rule-evaluator.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import type { RuleSubject } from './rule-subject.ts';

type RuleInput = RulePackInput['rules'][number];

/** One rule with the given fields over a minimal valid one, validated and compiled as a saved pack would be. */
export function compiledRule(fields: Partial<RuleInput>): CompiledRule {
  const pack = RulePack.parse({
    schema: 'loupe.rules/v1',
    name: 'test',
    rules: [{ id: 'content/test-rule', title: 'Test', category: 'content', severity: 'warning', message: 'fired', when: { type: 'status', class: ['2xx'] }, ...fields }],
  });
  const rule = compileRulePack(pack).rules[0];
  if (!rule) throw new Error('the rule is disabled');
  return rule;
}

/** An HTML page answering 200, with whatever the test changes. */
export function subject(fields: Partial<RuleSubject> = {}): RuleSubject {
  return {
    url: 'https://example.test/docs/intro',
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    contentType: 'text/html; charset=utf-8',
    html: '<html><head><title>Intro</title></head><body><h1>Intro</h1><p>Hello there.</p></body></html>',
    visibleText: 'Intro Hello there.',
    title: 'Intro',
    indexable: true,
    metrics: { wordCount: 3 },
    ...fields,
  };
}

/** The outcome of a rule whose condition is `when` (and other fields), on a subject. */
export function evaluate(when: RuleInput['when'], on: RuleSubject = subject(), fields: Partial<RuleInput> = {}): RuleEvaluation {
  return evaluateRule(compiledRule({ when, ...fields }), on);
}

export function outcome(when: RuleInput['when'], on?: RuleSubject, fields?: Partial<RuleInput>): RuleEvaluation['outcome'] {
  return evaluate(when, on, fields).outcome;
}
