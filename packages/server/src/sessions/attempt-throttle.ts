import { LoupeError } from '@loupe/contract';
import { LRUCache } from 'lru-cache';

export interface ThrottleLimits {
  /** Attempts allowed per key in one window; the next ones wait for the window to end. */
  attempts: number;
  windowMs: number;
  /** Starts the 429's message: "Too many sign-in attempts for this email". */
  refusal: string;
}

/**
 * Counts attempts per key (an email, a client address) in a fixed window, per process, and
 * answers 429 with Retry-After once a key's window is used up. An attempt counts as it starts,
 * so parallel attempts cannot all slip in before the first is judged. Up to 10,000 keys are
 * remembered; the least recently seen go first.
 */
export class AttemptThrottle {
  readonly #limits: ThrottleLimits;
  readonly #attempts: LRUCache<string, { count: number }>;

  constructor(limits: ThrottleLimits) {
    this.#limits = limits;
    this.#attempts = new LRUCache({ max: 10_000, ttl: limits.windowMs, noUpdateTTL: true });
  }

  /** Counts an attempt for `key`, or throws 429 when its window is used up. */
  begin(key: string): void {
    const entry = this.#attempts.get(key);
    if (entry && entry.count >= this.#limits.attempts) {
      const retryAfter = Math.max(1, Math.ceil(this.#attempts.getRemainingTTL(key) / 1000));
      throw new LoupeError('rate_limited', {
        message: `${this.#limits.refusal}; try again in ${Math.ceil(retryAfter / 60)} minutes.`,
        extra: { retryAfter },
      });
    }
    if (entry) entry.count += 1;
    else this.#attempts.set(key, { count: 1 });
  }

  /** Starts the count for `key` again (a sign-in that succeeded). */
  forget(key: string): void {
    this.#attempts.delete(key);
  }
}
