import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateWindow } from './rate-window.ts';

describe('RateWindow', () => {
  it('is unknown (null) until a second has been seen', () => {
    const window = new RateWindow(5_000);
    window.add(0, [0, 0]);
    window.add(900, [9, 3]);
    assert.deepEqual(window.rates(900), [null, null]);
  });

  it('gives each count a second over the window, to a tenth', () => {
    const window = new RateWindow(5_000);
    window.add(0, [0, 0]);
    window.add(1_000, [10, 1]);
    window.add(3_000, [30, 7]);
    assert.deepEqual(window.rates(3_000), [10, 2.3]);
  });

  it('forgets what is older than the window, keeping one sample from its start as the baseline', () => {
    const window = new RateWindow(5_000);
    window.add(0, [0]);
    window.add(1_000, [100]);
    window.add(6_000, [110]);
    window.add(7_000, [120]);
    // The burst of the first second is forgotten: 20 more pages in the 6 s since t = 1 s.
    assert.deepEqual(window.rates(7_000), [3.3]);
  });

  it('keeps about one sample per tenth of a second however often counts come', () => {
    const window = new RateWindow(5_000);
    for (let n = 0; n <= 100_000; n++) window.add(n / 10, [n]);
    assert.ok(window.size <= 52, `${window.size} samples`);
    assert.deepEqual(window.rates(10_000), [10_000]);
  });

  it('decays to 0 when a count stops growing', () => {
    const window = new RateWindow(5_000);
    window.add(0, [0]);
    window.add(2_000, [50]);
    assert.deepEqual(window.rates(2_000), [25]);
    assert.deepEqual(window.rates(60_000), [0]);
  });
});
