/**
 * How long to wait before retrying a 429 or 503. `Retry-After` is honoured as the server
 * states it, in seconds or as an HTTP date (RFC 9110 §10.2.3); without a usable one the wait
 * grows exponentially from `BACKOFF_BASE_MS`, with jitter so that many clients refused at
 * once do not come back at once.
 */

/** The longest the SDK waits before one retry. A server asking for more is not retried early: the error is thrown. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** The first backoff when the answer has no `Retry-After`; each retry doubles it, up to the cap. */
export const BACKOFF_BASE_MS = 500;

/**
 * The wait in milliseconds before retry number `attempt + 1`, or `undefined` when the server
 * asks for longer than `MAX_RETRY_DELAY_MS`.
 */
export function retryDelay(
  retryAfter: string | null,
  attempt: number,
  now: number = Date.now(),
  random: () => number = Math.random,
): number | undefined {
  const stated = retryAfterMs(retryAfter, now);
  if (stated !== undefined) return stated <= MAX_RETRY_DELAY_MS ? stated : undefined;
  // "Equal jitter": at least half the exponential step, so a retry never comes back at once.
  const step = Math.min(MAX_RETRY_DELAY_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

/** `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date (a past date is 0); undefined if absent or unreadable. */
export function retryAfterMs(retryAfter: string | null, now: number = Date.now()): number | undefined {
  const value = retryAfter?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Every HTTP-date form starts with the day's name; Date.parse alone would also take "-1" or "1.5".
  if (!/^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
