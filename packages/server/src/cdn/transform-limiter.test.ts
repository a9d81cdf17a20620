import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { TransformLimiter } from './transform-limiter.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('transform limiter', () => {
  it('runs at most `concurrency` tasks at once and queues the rest', async () => {
    const limiter = new TransformLimiter({ concurrency: 2, maxQueued: 10 });
    const gates = [deferred(), deferred(), deferred()];
    let peak = 0;
    let active = 0;
    const runs = gates.map((gate) =>
      limiter.run(async () => {
        peak = Math.max(peak, ++active);
        await gate.promise;
        active--;
      }),
    );
    await Promise.resolve();
    assert.deepEqual([limiter.running, limiter.waiting], [2, 1]);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    assert.equal(peak, 2);
  });

  it('refuses with 503 overloaded and a Retry-After once the queue is full', async () => {
    const limiter = new TransformLimiter({ concurrency: 1, maxQueued: 1 });
    const gate = deferred();
    const running = limiter.run(() => gate.promise);
    const queued = limiter.run(() => Promise.resolve());
    await assert.rejects(
      limiter.run(() => Promise.resolve()),
      (error: unknown) => {
        return error instanceof LoupeError && error.status === 503 && error.code === 'overloaded' && error.extra.retryAfter === 2;
      },
    );
    gate.resolve();
    await Promise.all([running, queued]);
  });

  it('with no queue, runs a task while a slot is free and refuses the next', async () => {
    const limiter = new TransformLimiter({ concurrency: 1, maxQueued: 0 });
    const gate = deferred();
    const running = limiter.run(() => gate.promise);
    await assert.rejects(
      limiter.run(() => Promise.resolve()),
      (error: unknown) => error instanceof LoupeError && error.code === 'overloaded',
    );
    gate.resolve();
    await running;
    await limiter.run(() => Promise.resolve());
  });
});
