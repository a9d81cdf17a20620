import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RulePack, type RulePackInput } from '@loupe/contract';
import { evaluateBatch, type RuleBatch } from './rule-batch.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import { RuleWatch } from './rule-watch.ts';
import { subject } from './test-rules.ts';
import { wallClock } from './wall-clock.ts';

type RuleInput = RulePackInput['rules'][number];

const headerRule = (id: string, name: string): RuleInput => ({
  id,
  title: id,
  category: 'content',
  severity: 'notice',
  when: { type: 'header', name, test: { op: 'present' } },
  message: '{{path}}',
});
const rules = compileRulePack(
  RulePack.parse({
    schema: 'loupe.rules/v1',
    name: 't',
    rules: [headerRule('content/odd', 'x-odd'), headerRule('content/type', 'content-type')],
  }),
).rules;

const batch = (subjects: RuleBatch['subjects']): RuleBatch => ({
  runId: 'test',
  subjects,
  pageBudgetMs: 1000,
  pageLimit: rules.map(() => subjects.length),
  runBudgetLeftMs: rules.map(() => Number.POSITIVE_INFINITY),
  explain: rules.map(() => Number.POSITIVE_INFINITY),
  deadlineAt: null,
  fromPage: 0,
  board: RuleWatch.board(),
});

describe('a batch of pages on a rule thread', () => {
  it('stops a rule that throws on a page, at that page, and decides the other rules on every page', () => {
    // A header that cannot be read stands for whatever a rule might throw on (a stack overflow on a deep page, say).
    const headers = Object.defineProperty({ 'content-type': 'text/html' }, 'x-odd', {
      enumerable: true,
      get() {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    const [odd, type] = evaluateBatch(rules, batch([subject(), subject({ headers }), subject()])).outcomes;
    assert.deepEqual(odd?.stop, { page: 1, cause: 'failed', reason: 'Maximum call stack size exceeded' });
    assert.equal(odd?.decided, 1);
    assert.equal(type?.fired.length, 3);
  });

  it('tells the watching side nothing is running once it is done, after a throw too', () => {
    const done = batch([
      subject({
        headers: Object.defineProperty({}, 'x-odd', {
          enumerable: true,
          get: () => {
            throw new Error('no');
          },
        }),
      }),
    ]);
    evaluateBatch(rules, done);
    assert.equal(new RuleWatch(done.board).current(), undefined);
  });

  it("hands over what it has decided page by page once its run's deadline is nearer than the page budget", () => {
    const deadlineAt = wallClock() + 1500;
    // The header read on the second page takes until the deadline is 900 ms away, less than the page budget.
    const headers = Object.defineProperty({ 'content-type': 'text/html' }, 'x-odd', {
      enumerable: true,
      get() {
        while (wallClock() < deadlineAt - 900);
        return 'slow';
      },
    });
    const answer = evaluateBatch(rules, { ...batch([subject(), subject({ headers }), subject()]), deadlineAt });
    assert.equal(answer.pausedAt, 2, 'before the third page');
    assert.deepEqual(
      answer.outcomes.map((outcome) => [outcome.decided, outcome.stop]),
      [
        [2, undefined],
        [2, undefined],
      ],
    );
  });

  it('goes on from the page it handed over at, and stops every rule not done at the deadline at the page it was on', () => {
    const deadlineAt = wallClock() + 50;
    // The header read on the second page outlasts the deadline, as a costly selector would.
    const headers = Object.defineProperty({ 'content-type': 'text/html' }, 'x-odd', {
      enumerable: true,
      get() {
        while (wallClock() < deadlineAt + 20);
        return 'late';
      },
    });
    const { outcomes, pausedAt } = evaluateBatch(rules, {
      ...batch([subject(), subject({ headers }), subject()]),
      deadlineAt,
      fromPage: 1,
    });
    assert.equal(pausedAt, undefined);
    assert.deepEqual(outcomes[0]?.stop, { page: 1, cause: 'timeout', budget: 'deadline' });
    assert.deepEqual(outcomes[1]?.stop, { page: 1, cause: 'timeout', budget: 'deadline' }, 'not run once the deadline has passed');
    assert.deepEqual([outcomes[0]?.decided, outcomes[1]?.decided], [0, 0], 'the page before was handed over already');
  });
});
