import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate, subject } from './test-rules.ts';

/**
 * Rules come from users: no expression may hang a crawl. RE2 runs these in time linear in the
 * text; a backtracking engine (JavaScript's RegExp) takes exponential time on them, so this
 * test would hang there rather than finish.
 */
const MEGABYTE_OF_A = 'a'.repeat(1024 * 1024);

describe('pathological input', () => {
  it('decides (a+)+$ over 1 MB of a\u2019s, with its evidence', () => {
    const result = evaluate({ type: 'text', str: { matches: '(a+)+$' } }, subject({ visibleText: MEGABYTE_OF_A }));
    assert.equal(result.outcome, 'fired');
    assert.equal(result.evidence?.total, 1);
  });

  it('decides (x+x+)+y over 1 MB of a\u2019s and of x\u2019s', () => {
    const on = (text: string) => subject({ visibleText: text });
    assert.equal(evaluate({ type: 'text', str: { matches: '(x+x+)+y' } }, on(MEGABYTE_OF_A)).outcome, 'passed');
    assert.equal(evaluate({ type: 'text', str: { matches: '(x+x+)+y' } }, on('x'.repeat(1024 * 1024))).outcome, 'passed');
  });

  it('decides a nested quantifier on the HTML and in an element\u2019s text', () => {
    // Short of the 1 MiB a rule sees of the HTML, so the closing `!` is still in it.
    const html = `<html><body><p>${MEGABYTE_OF_A.slice(100)}!</p></body></html>`;
    const on = subject({ html });
    assert.equal(evaluate({ type: 'text', source: 'html', str: { matches: '(a|aa)+$' } }, on).outcome, 'passed');
    assert.equal(evaluate({ type: 'selector', selector: 'p', test: { op: 'text', str: { matches: '^(a+)+b' } } }, on).outcome, 'passed');
  });

  it('stops counting an expression that matches the empty string everywhere', () => {
    const result = evaluate({ type: 'text', str: { matches: 'x*' } }, subject({ visibleText: MEGABYTE_OF_A }));
    assert.equal(result.outcome, 'fired');
    assert.deepEqual(result.evidence, { samples: [], total: 0 });
  });
});
