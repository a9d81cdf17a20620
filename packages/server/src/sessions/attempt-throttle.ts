import { LoupeError } from '@loupe/contract';
import { LRUCache } from 'lru-cache';

/** Attempts allowed per email in one window; the next ones wait for the window to end. */
const ATTEMPTS_PER_WINDOW = 10;
const WINDOW_MS = 15 * 60_000;

/**
 * Slows password guessing against one account (DESIGN.md §5): at most 10 failed sign-ins per
 * email in 15 minutes, per process, on top of scrypt's ~120 ms per try. Counted per email
 * rather than per address, since behind a proxy every client has the proxy's address; the
 * price is that someone who knows an email can make its owner wait out the window.
 * An attempt counts as it starts, so parallel guesses cannot all slip in before the first fails.
 */
export class SignInThrottle {
  readonly #attempts = new LRUCache<string, { count: number }>({ max: 10_000, ttl: WINDOW_MS, noUpdateTTL: true });

  /** Counts an attempt for `email`, or throws 429 when its window is used up. */
  begin(email: string): void {
    const entry = this.#attempts.get(email);
    if (entry && entry.count >= ATTEMPTS_PER_WINDOW) {
      const retryAfter = Math.max(1, Math.ceil(this.#attempts.getRemainingTTL(email) / 1000));
      throw new LoupeError('rate_limited', {
        message: `Too many sign-in attempts for this email; try again in ${Math.ceil(retryAfter / 60)} minutes.`,
        extra: { retryAfter },
      });
    }
    if (entry) entry.count += 1;
    else this.#attempts.set(email, { count: 1 });
  }

  /** A successful sign-in starts the count again. */
  succeeded(email: string): void {
    this.#attempts.delete(email);
  }
}
