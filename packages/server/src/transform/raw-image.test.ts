import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImageDecodeError } from './image-decode-error.ts';
import { timeBudget } from './raw-image.ts';

describe('time budget', () => {
  it('gives each stage the whole seconds that remain, rounded up', () => {
    let now = 1_000_000;
    const secondsLeft = timeBudget(10, () => now);
    assert.equal(secondsLeft(), 10);
    now += 8_500;
    assert.equal(secondsLeft(), 2);
  });
  it('stops with a timeout once the deadline has passed', () => {
    let now = 0;
    const secondsLeft = timeBudget(2, () => now);
    now = 2_000;
    assert.throws(secondsLeft, (error) => error instanceof ImageDecodeError && error.reason === 'timeout');
  });
  it('is unlimited at zero, as in sharp', () => {
    assert.equal(timeBudget(0)(), 0);
  });
});
