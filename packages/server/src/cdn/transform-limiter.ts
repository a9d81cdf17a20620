import { LoupeError } from '@loupe/contract';
import PQueue from 'p-queue';

export interface TransformLimits {
  /** Transforms running at once: about one per core, since sharp and the encoders are CPU-bound. */
  concurrency: number;
  /** Transforms waiting beyond that; one more is refused at once with 503. */
  maxQueued: number;
}

/**
 * Bounds the CPU spent on transforms (DESIGN.md §7, Safety): excess requests wait in a
 * queue, and when the queue is full they get 503 with Retry-After instead of piling up.
 */
export class TransformLimiter {
  readonly #queue: PQueue;
  readonly #maxQueued: number;

  constructor(limits: TransformLimits) {
    this.#queue = new PQueue({ concurrency: limits.concurrency });
    this.#maxQueued = limits.maxQueued;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    // Only a task that would wait counts against the queue: with maxQueued 0, a free slot still runs one.
    if (this.#queue.pending >= this.#queue.concurrency && this.#queue.size >= this.#maxQueued) {
      return Promise.reject(new LoupeError('overloaded', { extra: { retryAfter: 2 } }));
    }
    return this.#queue.add(task) as Promise<T>;
  }

  get running(): number {
    return this.#queue.pending;
  }

  get waiting(): number {
    return this.#queue.size;
  }
}
