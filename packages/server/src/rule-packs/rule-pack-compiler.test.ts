import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoupeError, RulePack, type RulePackInput } from '@loupe/contract';
import { compileUserPack } from './compile-user-pack.ts';
import { evaluateRule } from './rule-evaluator.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import { subject } from './test-rules.ts';

type RuleInput = RulePackInput['rules'][number];

const rule = (fields: Partial<RuleInput>): RuleInput => ({
  id: 'content/compiled',
  title: 'Compiled',
  category: 'content',
  severity: 'notice',
  message: '{{path}}',
  when: { type: 'status', class: ['2xx'] },
  ...fields,
});
const packOf = (...rules: RuleInput[]) => RulePack.parse({ schema: 'loupe.rules/v1', name: 'p', rules });

function problems(pack: ReturnType<typeof packOf>, options?: Parameters<typeof compileRulePack>[1]): Record<string, string[]> {
  try {
    compileRulePack(pack, options);
  } catch (error) {
    assert.ok(error instanceof LoupeError);
    assert.equal(error.code, 'validation_failed');
    return error.details?.fieldErrors ?? {};
  }
  assert.fail('the pack compiled');
}

describe('rule pack compiler', () => {
  it('reports every problem at once, each at its field path', () => {
    const found = problems(
      packOf(
        rule({ when: { type: 'selector', selector: 'p,', test: { op: 'exists' } } }),
        rule({
          id: 'content/two',
          when: { any: [{ type: 'status', class: ['2xx'] }, { not: { type: 'text', str: { matches: '(?<name' } } }] },
          message: '{{nope}}',
          scope: { include: ['!/x'] },
        }),
      ),
    );
    assert.deepEqual(Object.keys(found).sort(), [
      'rules.0.when.selector',
      'rules.1.message',
      'rules.1.scope.include.0',
      'rules.1.when.any.1.not.str.matches',
    ]);
  });

  it('puts a prefix before every path', () => {
    const found = problems(packOf(rule({ message: '{{x}}' })), { prefix: ['pack'] });
    assert.deepEqual(Object.keys(found), ['pack.rules.0.message']);
  });

  it('checks disabled rules but leaves them out of the compiled pack', () => {
    const compiled = compileRulePack(packOf(rule({}), rule({ id: 'content/off', enabled: false })));
    assert.equal(compiled.ruleCount, 2);
    assert.deepEqual(
      compiled.rules.map((r) => r.definition.id),
      ['content/compiled'],
    );
    assert.ok(problems(packOf(rule({}), rule({ id: 'content/off', enabled: false, message: '{{bad}}' })))['rules.1.message']);
  });

  it('refuses the ids of built-in checks in a pack someone saves, not in one already saved', () => {
    for (const id of ['titles/missing', 'accessibility/axe-color-contrast']) {
      assert.throws(
        () => compileUserPack(packOf(rule({ id }))),
        (error: LoupeError) => Boolean(error.details?.fieldErrors?.['rules.0.id']),
        id,
      );
      assert.equal(compileRulePack(packOf(rule({ id }))).rules.length, 1, id);
    }
  });

  it('decides cheap conditions first: a false metric spares parsing the page', () => {
    const [compiled] = compileRulePack(
      packOf(
        rule({
          when: {
            all: [
              { type: 'selector', selector: 'p', test: { op: 'exists' } },
              { type: 'metric', metric: 'wordCount', cmp: { op: 'gt', value: 1000 } },
            ],
          },
        }),
      ),
    ).rules;
    let htmlReads = 0;
    const page = subject();
    const html = page.html;
    Object.defineProperty(page, 'html', {
      get: () => {
        htmlReads++;
        return html;
      },
    });
    assert.equal(evaluateRule(compiled!, page).outcome, 'passed');
    assert.equal(htmlReads, 0);
  });

  it('marks the rules with a rendered-DOM condition anywhere in their tree', () => {
    const onRendered = { type: 'selector', selector: 'h1', dom: 'rendered', test: { op: 'exists' } } as const;
    const compiled = compileRulePack(
      packOf(
        rule({ id: 'content/raw', when: { type: 'selector', selector: 'h1', test: { op: 'exists' } } }),
        rule({ id: 'content/nested', when: { all: [{ type: 'status', class: ['2xx'] }, { not: { any: [onRendered] } }] } }),
      ),
    );
    assert.deepEqual(
      compiled.rules.map((compiledRule) => compiledRule.readsRenderedDom),
      [false, true],
    );
  });
});
