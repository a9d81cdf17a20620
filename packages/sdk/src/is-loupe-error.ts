import { type ErrorCode, LoupeError } from '@loupe/contract';

/**
 * Whether `error` is a LoupeError, and with one of `codes` when given; narrows `code` for
 * a `switch` or an exhaustive check.
 *
 * @example
 * try {
 *   await loupe.startCrawl({ body: { url: 'https://example.com/', mode: 'site', maxPages: 5000 } });
 * } catch (error) {
 *   if (!isLoupeError(error, 'insufficient_credits')) throw error;
 *   console.log(`needs ${error.extra.required} credits, has ${error.extra.balance}`);
 * }
 */
export function isLoupeError<C extends ErrorCode = ErrorCode>(error: unknown, ...codes: C[]): error is LoupeError & { code: C } {
  return error instanceof LoupeError && (codes.length === 0 || (codes as ErrorCode[]).includes(error.code));
}
