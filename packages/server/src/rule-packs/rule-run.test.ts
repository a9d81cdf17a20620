import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RulePack } from '@loupe/contract';
import { htmlSubject } from './html-subject.ts';
import type { RuleBatchOutcome } from './rule-batch.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import { RuleRun } from './rule-run.ts';
import type { RuleThreadAnswer } from './rule-threads.ts';
import { nestedDivs, selectorRule } from './test-rules.ts';

const compiled = (...rules: ReturnType<typeof selectorRule>[]) =>
  compileRulePack(RulePack.parse({ schema: 'loupe.rules/v1', name: 'test', rules })).rules;

const page = (path: string, body = '<p>Plain.</p>') =>
  htmlSubject({ url: `https://example.test${path}`, html: `<html><body><h1>${path}</h1>${body}</body></html>` });
/** css-select tries every chain of ancestors here: some 50 s on one page for four descendants, 0.2 s for three over 100. */
const nested = (path: string, depth: number) => page(path, nestedDivs(depth));

describe('a run of custom rules on the rule threads', () => {
  it('stops a rule that never comes back on a page, keeping what it decided before and every other rule\u2019s outcomes', async () => {
    const run = new RuleRun(compiled(selectorRule('content/heading', 'h1'), selectorRule('content/costly', 'section div div div div')), {
      purpose: 'preview',
      pageBudgetMs: 200,
    });
    const [heading, costly] = await run.evaluate([page('/a'), page('/b'), nested('/nested', 200), page('/c')]);
    assert.deepEqual(
      heading?.fired.map((fired) => fired.page),
      [0, 1, 2, 3],
    );
    assert.deepEqual([costly?.decided, costly?.fired.length], [2, 0], 'decided on the two pages before, on none after');
    const [none, error] = run.errors();
    assert.equal(none, null);
    assert.deepEqual(
      { ...error, message: undefined },
      {
        ruleId: 'content/costly',
        code: 'rule_timeout',
        budget: 'page',
        budgetMs: 200,
        url: 'https://example.test/nested',
        pagesEvaluated: 2,
        message: undefined,
      },
    );
  });

  it('runs a stopped rule on no later batch of the run', async () => {
    const run = new RuleRun(compiled(selectorRule('content/costly', 'section div div div div')), { purpose: 'preview', pageBudgetMs: 200 });
    await run.evaluate([nested('/nested', 200)]);
    const [later] = await run.evaluate([page('/a'), page('/b')]);
    assert.deepEqual([later?.decided, later?.fired.length], [0, 0]);
    assert.equal(run.errors()[0]?.pagesEvaluated, 0);
  });

  it('stops each of several costly rules of one pack, each at its own rule', async () => {
    const run = new RuleRun(
      compiled(
        selectorRule('content/costly-1', 'section div div div div'),
        selectorRule('content/costly-2', 'article div div div div'),
        selectorRule('content/heading', 'h1'),
      ),
      { purpose: 'preview', pageBudgetMs: 200 },
    );
    const outcomes = await run.evaluate([nested('/nested', 200), page('/a')]);
    assert.deepEqual(
      run.errors().map((error) => error?.ruleId ?? null),
      ['content/costly-1', 'content/costly-2', null],
    );
    assert.equal(outcomes[2]?.fired.length, 2);
  });

  it('stops a rule past what is left of its budget for the whole run, as a preview\u2019s', async () => {
    const run = new RuleRun(compiled(selectorRule('content/costly', 'section div div div'), selectorRule('content/heading', 'h1')), {
      purpose: 'preview',
      pageBudgetMs: 10_000,
      runBudgetMs: 40,
    });
    // Some 0.25 s for the costly one; the other, on a fresh thread that parses the page again, well under 40 ms even on a busy machine.
    const [costly, heading] = await run.evaluate([nested('/nested', 120), page('/a')]);
    assert.equal(costly?.decided, 0);
    assert.equal(heading?.fired.length, 2);
    const error = run.errors()[0];
    assert.deepEqual(
      [error?.budget, error?.budgetMs, error?.url, error?.pagesEvaluated],
      ['preview', 40, 'https://example.test/nested', 0],
    );
    assert.match(error?.message ?? '', /more than 40 ms over this preview's pages/);
  });

  it('explains only the firings asked for, in page order, and counts the rest', async () => {
    const run = new RuleRun(compiled(selectorRule('content/heading', 'h1')), { purpose: 'preview', pageBudgetMs: 1000, explain: 3 });
    const first = await run.evaluate([page('/a'), page('/b')]);
    const second = await run.evaluate([page('/c'), page('/d')]);
    assert.deepEqual(
      first[0]?.fired.map((fired) => fired.message),
      ['1 on /a', '1 on /b'],
    );
    assert.deepEqual(
      second[0]?.fired.map((fired) => fired.message),
      ['1 on /c', undefined],
    );
  });

  it('reports a rule whose thread died on a page (out of memory) as failed there, and runs the others again without it', async () => {
    const asked: number[][] = [];
    const answers: RuleThreadAnswer[] = [
      { stopped: { rule: 0, page: 1, cause: 'failed', reason: 'Worker terminated due to reaching memory limit: JS heap out of memory' } },
      {
        outcomes: [
          { decided: 1, notApplicable: 0, fired: [], spentMs: 1 },
          { decided: 3, notApplicable: 0, fired: [{ page: 0 }, { page: 1 }, { page: 2 }], spentMs: 1 },
        ] as RuleBatchOutcome[],
      },
    ];
    const threads = {
      run: async (_rules: unknown, batch: { pageLimit: number[] }) => (
        asked.push([...batch.pageLimit]), answers.shift() as RuleThreadAnswer
      ),
    };
    const run = new RuleRun(compiled(selectorRule('content/greedy', 'p'), selectorRule('content/heading', 'h1')), {
      purpose: 'preview',
      pageBudgetMs: 1000,
      threads,
    });
    const [greedy, heading] = await run.evaluate([page('/a'), page('/b'), page('/c')]);
    assert.deepEqual(
      asked,
      [
        [3, 3],
        [1, 3],
      ],
      'asked again with the rule limited to the pages before',
    );
    assert.equal(greedy?.decided, 1);
    assert.equal(heading?.fired.length, 3);
    const error = run.errors()[0];
    assert.deepEqual(
      [error?.code, error?.budget, error?.budgetMs, error?.url, error?.pagesEvaluated],
      ['rule_failed', null, null, 'https://example.test/b', 1],
    );
    assert.match(error?.message ?? '', /could not be decided on this page \(Worker terminated due to reaching memory limit/);
  });

  it('stops a rule past its budget for the whole report build, naming that budget', async () => {
    const run = new RuleRun(compiled(selectorRule('content/costly', 'section div div div')), {
      purpose: 'report',
      pageBudgetMs: 10_000,
      runBudgetMs: 5,
    });
    await run.evaluate([nested('/nested', 100), page('/a')]);
    const error = run.errors()[0];
    assert.deepEqual([error?.budget, error?.budgetMs], ['report', 5]);
    assert.match(error?.message ?? '', /more than 5 ms over this report's pages/);
  });

  it('stops every rule not done by the run\u2019s deadline, each keeping what it decided before', async () => {
    // Each costly one takes at least its page budget before it is stopped and its thread ended:
    // 30 of them, 6 s at least, outlast the deadline on any machine, and the deadline leaves a
    // thread started under load time to reach the first.
    const costly = Array.from({ length: 30 }, (_, index) => selectorRule(`content/costly-${index + 1}`, 'section div div div div'));
    // A thread started before the deadline's clock does: on a loaded machine, starting one took most of it.
    await new RuleRun(compiled(selectorRule('content/heading', 'h1')), { purpose: 'preview', pageBudgetMs: 10_000 }).evaluate([
      page('/warm'),
    ]);
    const run = new RuleRun(compiled(...costly, selectorRule('content/heading', 'h1')), {
      purpose: 'preview',
      pageBudgetMs: 200,
      deadlineMs: 4000,
    });
    const outcomes = await run.evaluate([page('/a'), page('/b'), nested('/nested', 200), page('/c')]);
    const errors = run.errors();
    assert.equal(errors[0]?.budget, 'page', 'the first costly rule is stopped at its page budget, well before the deadline');
    const heading = errors.at(-1);
    assert.deepEqual([heading?.code, heading?.budget, heading?.budgetMs], ['rule_timeout', 'deadline', 4000]);
    assert.equal(outcomes.at(-1)?.decided, heading?.pagesEvaluated, 'its counts cover the pages it was run on before');
    assert.match(heading?.message ?? '', /the preview reached its deadline of 4000 ms before this rule was run on every page/);
    assert.ok(errors.every((error) => error !== null));
  });

  it('sends a thread nothing once the deadline has passed, every rule stopped at the first page left', async () => {
    let asked = 0;
    const threads = { run: async () => (asked++, { expired: true }) as RuleThreadAnswer };
    const run = new RuleRun(compiled(selectorRule('content/heading', 'h1')), {
      purpose: 'preview',
      pageBudgetMs: 1000,
      deadlineMs: 0,
      threads,
    });
    const [heading] = await run.evaluate([page('/a'), page('/b')]);
    assert.equal(asked, 0);
    assert.equal(heading?.decided, 0);
    assert.deepEqual(
      [run.errors()[0]?.budget, run.errors()[0]?.url, run.errors()[0]?.pagesEvaluated],
      ['deadline', 'https://example.test/a', 0],
    );
    assert.equal(run.done, true);
  });

  it('stops at the deadline the rules of a batch no thread took in time, a rule its thread ended on keeping its own cause', async () => {
    const answers: RuleThreadAnswer[] = [{ stopped: { rule: 0, page: 1, cause: 'timeout', budget: 'page' } }, { expired: true }];
    const threads = { run: async () => answers.shift() as RuleThreadAnswer };
    const run = new RuleRun(compiled(selectorRule('content/costly', 'p'), selectorRule('content/heading', 'h1')), {
      purpose: 'preview',
      pageBudgetMs: 1000,
      deadlineMs: 60_000,
      threads,
    });
    await run.evaluate([page('/a'), page('/b'), page('/c')]);
    const [costly, heading] = run.errors();
    assert.deepEqual([costly?.budget, costly?.url], ['page', 'https://example.test/b']);
    assert.deepEqual([heading?.budget, heading?.url, heading?.pagesEvaluated], ['deadline', 'https://example.test/a', 0]);
  });

  it('keeps what a thread handed over before the deadline, the rules stopped where it ends', async () => {
    const fired = (page: number) => ({ decided: 1, notApplicable: 0, fired: [{ page, message: 'h1' }], spentMs: 1 });
    const answers: RuleThreadAnswer[] = [
      { outcomes: [fired(0), fired(0)], pausedAt: 1 },
      { outcomes: [fired(1), fired(1)], pausedAt: 2 },
      { expired: true },
    ];
    const from: number[] = [];
    const threads = {
      run: async (_rules: unknown, batch: { fromPage: number }) => (from.push(batch.fromPage), answers.shift() as RuleThreadAnswer),
    };
    const run = new RuleRun(compiled(selectorRule('content/one', 'h1'), selectorRule('content/two', 'h1')), {
      purpose: 'preview',
      pageBudgetMs: 1000,
      deadlineMs: 60_000,
      threads,
    });
    const outcomes = await run.evaluate([page('/a'), page('/b'), page('/c'), page('/d')]);
    assert.deepEqual(from, [0, 1, 2], 'each time from where the last one handed over');
    assert.deepEqual(
      outcomes.map((outcome) => outcome.fired.map((at) => at.page)),
      [
        [0, 1],
        [0, 1],
      ],
    );
    assert.deepEqual(
      run.errors().map((error) => [error?.budget, error?.url, error?.pagesEvaluated]),
      [
        ['deadline', 'https://example.test/c', 2],
        ['deadline', 'https://example.test/c', 2],
      ],
    );
  });
});
