import { RulePack, type RulePackInput } from '@loupe/contract';
import { htmlPage } from '../testing/html-page.ts';
import { compileUserPack } from './compile-user-pack.ts';
import type { CompiledRule } from './compiled-rule.ts';
import { evaluateRule, type RuleEvaluation } from './rule-evaluator.ts';
import type { RuleSubject } from './rule-subject.ts';

type RuleInput = RulePackInput['rules'][number];

/** One rule with the given fields over a minimal valid one, validated and compiled as a saved pack would be. */
export function compiledRule(fields: Partial<RuleInput>): CompiledRule {
  const pack = RulePack.parse({
    schema: 'loupe.rules/v1',
    name: 'test',
    rules: [
      {
        id: 'content/test-rule',
        title: 'Test',
        category: 'content',
        severity: 'warning',
        message: 'fired',
        when: { type: 'status', class: ['2xx'] },
        ...fields,
      },
    ],
  });
  const rule = compileUserPack(pack).rules[0];
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

/** A rule that fires where `selector` matches, as a pack's JSON holds it. */
export function selectorRule(id: string, selector: string): RuleInput {
  return {
    id,
    title: id,
    category: 'content',
    severity: 'notice',
    when: { type: 'selector', selector, test: { op: 'exists' } },
    message: '{{count}} on {{path}}',
  };
}

/** `depth` nested divs: a descendant selector that cannot match here (`section div div`) tries every chain of ancestors. */
export function nestedDivs(depth: number): string {
  return `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`;
}

/** A test site's pages: a home page, one of `depth` nested divs and two plain ones, each linking home. */
export function nestedSitePages(depth: number): Record<string, string> {
  return {
    '/': htmlPage({ path: '/', links: ['/nested', '/a', '/b'] }),
    '/nested': htmlPage({ path: '/nested', body: nestedDivs(depth), links: ['/'] }),
    '/a': htmlPage({ path: '/a', links: ['/'] }),
    '/b': htmlPage({ path: '/b', links: ['/'] }),
  };
}
