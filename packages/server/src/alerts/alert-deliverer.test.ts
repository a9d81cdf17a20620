import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryDelayMs } from './alert-deliverer.ts';

describe('alert retry backoff', () => {
  it('waits the base after the first failed attempt and twice as long after each next one', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 30_000)),
      [30_000, 60_000, 120_000, 240_000, 480_000],
    );
  });

  it('never waits more than an hour', () => {
    assert.equal(retryDelayMs(5, 600_000), 3_600_000);
    assert.equal(retryDelayMs(40, 30_000), 3_600_000);
  });
});
