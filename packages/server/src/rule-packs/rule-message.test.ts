import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RuleMessage } from './rule-message.ts';

const values = { url: 'https://x.test/a', path: '/a', status: '200', 'rule.id': 'content/x', labels: [], metrics: {} };

describe('rule messages', () => {
  it('renders placeholders, spaces inside the braces allowed, absent values as nothing', () => {
    const message = RuleMessage.compile('{{ path }} ({{status}}): {{count}}/{{match}}/{{value}}/{{metric.bytes}}');
    assert.equal(message.render({ ...values, metrics: { bytes: 2048 } }), '/a (200): ///2048');
    assert.equal(message.render({ ...values, count: 3, match: 'x', value: 1 / 3 }), '/a (200): 3/x/0.333/');
  });

  it('refuses unknown placeholders, unknown metrics and an unclosed {{', () => {
    assert.throws(() => RuleMessage.compile('{{title}}'), /Unknown placeholder \{\{title\}\}/);
    assert.throws(() => RuleMessage.compile('{{metric.speed}}'), /Unknown placeholder/);
    assert.throws(() => RuleMessage.compile('{{metric}}'), /Unknown placeholder/);
    assert.throws(() => RuleMessage.compile('open {{url'), /never closed/);
    assert.equal(RuleMessage.compile('no placeholders } {').render(values), 'no placeholders } {');
  });

  it('cuts long values, and the whole message at 1,000 characters', () => {
    const message = RuleMessage.compile('[{{match}}]');
    assert.equal(message.render({ ...values, match: 'm'.repeat(500) }), `[${'m'.repeat(199)}…]`);
    const labels = RuleMessage.compile('{{labels}}'.repeat(10)).render({ ...values, labels: ['l'.repeat(150)] });
    assert.equal(labels.length, 1000);
  });
});
