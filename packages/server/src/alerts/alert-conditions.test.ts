import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AlertConditions } from '@loupe/contract';
import { type CrawlEndFacts, firedConditions } from './alert-conditions.ts';

const off: AlertConditions = { crawlFailed: false, scoreBelow: null, scoreDropBy: null, newErrors: false };
const all: AlertConditions = { crawlFailed: true, scoreBelow: 70, scoreDropBy: 5, newErrors: true };

function facts(overrides: Partial<CrawlEndFacts> = {}): CrawlEndFacts {
  return {
    crawl: { status: 'completed', error: null },
    report: { id: 'r2', score: 80 },
    previousScored: { id: 'r1', score: 80 },
    newErrors: { previousReportId: 'r1', count: 0, examples: [] },
    ...overrides,
  };
}

describe('alert conditions', () => {
  it('fire nothing when every condition is off, whatever happened', () => {
    const bad = facts({
      crawl: { status: 'failed', error: 'boom' },
      report: { id: 'r2', score: 10 },
      newErrors: { previousReportId: 'r1', count: 4, examples: [] },
    });
    assert.deepEqual(firedConditions(off, bad), []);
  });

  it('fire nothing on a healthy crawl with every condition on', () => {
    assert.deepEqual(firedConditions(all, facts()), []);
  });

  it('call a crawl failed only when its status is failed, with its error', () => {
    const on = { ...off, crawlFailed: true };
    assert.deepEqual(firedConditions(on, facts({ crawl: { status: 'failed', error: 'database gone' } })), [
      { type: 'crawlFailed', error: 'database gone' },
    ]);
    assert.deepEqual(firedConditions(on, facts({ crawl: { status: 'canceled', error: null } })), []);
    assert.deepEqual(firedConditions(on, facts({ crawl: { status: 'completed', error: null } })), []);
  });

  it('fire scoreBelow strictly below the threshold', () => {
    const on = { ...off, scoreBelow: 70 };
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: 69 } })), [{ type: 'scoreBelow', threshold: 70, score: 69 }]);
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: 70 } })), []);
  });

  it('never fire scoreBelow 0, and fire scoreBelow 100 on anything short of perfect', () => {
    assert.deepEqual(firedConditions({ ...off, scoreBelow: 0 }, facts({ report: { id: 'r2', score: 0 } })), []);
    assert.equal(firedConditions({ ...off, scoreBelow: 100 }, facts({ report: { id: 'r2', score: 99 } })).length, 1);
    assert.equal(firedConditions({ ...off, scoreBelow: 100 }, facts({ report: { id: 'r2', score: 100 } })).length, 0);
  });

  it('judge no score condition without a scored report', () => {
    const on = { ...off, scoreBelow: 100, scoreDropBy: 1 };
    assert.deepEqual(firedConditions(on, facts({ report: null })), []);
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: null } })), []);
  });

  it('fire scoreDropBy when the score fell by the threshold or more', () => {
    const on = { ...off, scoreDropBy: 9 };
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: 62 }, previousScored: { id: 'r1', score: 71 } })), [
      { type: 'scoreDropBy', threshold: 9, score: 62, previousScore: 71, previousReportId: 'r1' },
    ]);
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: 63 }, previousScored: { id: 'r1', score: 71 } })), []);
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: 90 }, previousScored: { id: 'r1', score: 71 } })), []);
  });

  it('fire scoreDropBy 1 on a one-point drop and never without an earlier scored report', () => {
    const on = { ...off, scoreDropBy: 1 };
    assert.equal(firedConditions(on, facts({ report: { id: 'r2', score: 79 } })).length, 1);
    assert.deepEqual(firedConditions(on, facts({ report: { id: 'r2', score: 0 }, previousScored: null })), []);
  });

  it('fire newErrors with the count and examples when there are any', () => {
    const on = { ...off, newErrors: true };
    const examples = [{ ruleId: 'links/broken', url: 'https://example.com/a' }];
    assert.deepEqual(firedConditions(on, facts({ newErrors: { previousReportId: 'r1', count: 3, examples } })), [
      { type: 'newErrors', previousReportId: 'r1', count: 3, examples },
    ]);
    assert.deepEqual(firedConditions(on, facts({ newErrors: null })), []);
  });

  it('list every condition that fired, in a fixed order', () => {
    const fired = firedConditions(
      all,
      facts({
        crawl: { status: 'failed', error: 'x' },
        report: { id: 'r2', score: 50 },
        previousScored: { id: 'r1', score: 90 },
        newErrors: { previousReportId: 'r1', count: 2, examples: [] },
      }),
    );
    assert.deepEqual(
      fired.map((condition) => condition.type),
      ['crawlFailed', 'scoreBelow', 'scoreDropBy', 'newErrors'],
    );
  });
});
