import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { loadConfig } from '../config.ts';
import type { TickResult } from './scheduler.ts';
import { startSchedulerLoop } from './scheduler-loop.ts';

/** Lets the promise callbacks the loop chains on a tick run (setImmediate is not among the mocked timers). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A scheduler whose ticks end when the test says so. */
function heldScheduler() {
  const calls: string[] = [];
  const held: (() => void)[] = [];
  let inFlight = 0;
  let peak = 0;
  return {
    calls,
    get peak() {
      return peak;
    },
    release: () => held.shift()?.(),
    async tick(at: Date): Promise<TickResult> {
      calls.push(at.toISOString());
      peak = Math.max(peak, ++inFlight);
      await new Promise<void>((resolve) => held.push(resolve));
      inFlight--;
      return { at: at.toISOString(), runs: [] };
    },
  };
}

const quiet = { error: () => {} };

describe('the scheduler loop', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: new Date('2031-05-01T00:00:00.000Z') }));
  afterEach(() => mock.timers.reset());

  it('ticks with the current time once an interval has passed, never while a tick is under way, and not after stop', async () => {
    const scheduler = heldScheduler();
    const loop = startSchedulerLoop([scheduler], 15_000, quiet);
    mock.timers.tick(14_999);
    await settle();
    assert.deepEqual(scheduler.calls, []);
    mock.timers.tick(1);
    await settle();
    assert.deepEqual(scheduler.calls, ['2031-05-01T00:00:15.000Z']);
    // A slow tick: time goes on, and the next interval starts only once it has ended.
    mock.timers.tick(60_000);
    await settle();
    assert.equal(scheduler.calls.length, 1);
    scheduler.release();
    await settle();
    mock.timers.tick(15_000);
    await settle();
    assert.deepEqual(scheduler.calls, ['2031-05-01T00:00:15.000Z', '2031-05-01T00:01:30.000Z']);
    assert.equal(scheduler.peak, 1);
    scheduler.release();
    await loop.stop();
    mock.timers.tick(60_000);
    await settle();
    assert.equal(scheduler.calls.length, 2);
  });

  it('waits on stop for the tick under way', async () => {
    const scheduler = heldScheduler();
    const loop = startSchedulerLoop([scheduler], 1_000, quiet);
    mock.timers.tick(1_000);
    await settle();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await settle();
    assert.equal(stopped, false);
    scheduler.release();
    await stopping;
    assert.equal(stopped, true);
  });

  it('logs a failed tick and tries again at the next interval', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const scheduler = {
      async tick(): Promise<TickResult> {
        calls++;
        throw new Error('database away');
      },
    };
    const loop = startSchedulerLoop([scheduler], 1_000, { error: (fields: unknown) => errors.push(fields) });
    for (let i = 0; i < 3; i++) {
      mock.timers.tick(1_000);
      await settle();
    }
    await loop.stop();
    assert.equal(calls, 3);
    assert.equal(errors.length, 3);
  });

  it('starts nothing with an interval of 0', async () => {
    const scheduler = heldScheduler();
    const loop = startSchedulerLoop([scheduler], 0, quiet);
    mock.timers.tick(24 * 60 * 60_000);
    await settle();
    await loop.stop();
    assert.deepEqual(scheduler.calls, []);
  });
});

describe('LOUPE_SCHEDULER_TICK_MS', () => {
  it('is 15 seconds unless set, and 0 turns the loop off', () => {
    assert.equal(loadConfig({}).schedulerTickMs, 15_000);
    assert.equal(loadConfig({ LOUPE_SCHEDULER_TICK_MS: '0' }).schedulerTickMs, 0);
    assert.equal(loadConfig({ LOUPE_SCHEDULER_TICK_MS: '2500' }).schedulerTickMs, 2_500);
  });

  it('refuses a negative or non-numeric interval, naming the variable', () => {
    for (const value of ['-1', 'soon', '1.5']) {
      assert.throws(() => loadConfig({ LOUPE_SCHEDULER_TICK_MS: value }), /LOUPE_SCHEDULER_TICK_MS/);
    }
  });
});
