import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RulePack } from '@loupe/contract';
import type { RuleBatch } from './rule-batch.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import { RuleThreads } from './rule-threads.ts';
import { selectorRule, subject } from './test-rules.ts';
import { wallClock } from './wall-clock.ts';

const rules = compileRulePack(
  RulePack.parse({ schema: 'loupe.rules/v1', name: 't', rules: [selectorRule('content/heading', 'h1')] }),
).rules.map((rule) => rule.definition);
const batch = (runId: string): Omit<RuleBatch, 'board'> => ({
  runId,
  subjects: [subject()],
  pageBudgetMs: 1000,
  pageLimit: [1],
  runBudgetLeftMs: [Number.POSITIVE_INFINITY],
  explain: [0],
  deadlineAt: null,
  fromPage: 0,
});

describe('the rule threads', () => {
  const threads = new RuleThreads({ maxThreads: 1 });
  after(() => threads.close());

  it('takes a report build\u2019s batch before previews\u2019 that were waiting longer', async () => {
    const answered: string[] = [];
    const send = (runId: string, priority: 'preview' | 'report') =>
      threads.run(rules, batch(runId), priority).then(() => answered.push(runId));
    await Promise.all([send('preview-1', 'preview'), send('preview-2', 'preview'), send('report', 'report')]);
    assert.ok(answered.indexOf('report') < answered.indexOf('preview-2'), answered.join(', '));
  });

  it('answers expired, with no outcomes, a batch still waiting for a thread at its run\u2019s deadline', async () => {
    // The only thread is busy with a long batch meanwhile.
    const busy = threads.run(
      rules,
      { ...batch('busy'), subjects: Array.from({ length: 20_000 }, () => subject()), pageLimit: [20_000] },
      'report',
    );
    const late = await threads.run(rules, { ...batch('late'), deadlineAt: wallClock() + 1 }, 'preview');
    assert.deepEqual(late, { expired: true });
    await busy;
  });
});
