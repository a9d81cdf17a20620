import { createHash, createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../identity/bearer-secret.ts';

/** A new session token: 32 random bytes in base64url, the cookie's value. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this hash is stored; the token has 256 bits, so no salt or slow hash is needed. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The session's CSRF token (a synchronizer token, OWASP's CSRF cheat sheet): derived from the
 * cookie's secret, so it is tied to the session, needs no storage, and cannot be made without
 * the cookie, which another site can neither read (HttpOnly) nor get sent on its writes.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('loupe csrf v1').digest('base64url');
}

/** Whether `given` is the CSRF token of this session, compared in constant time. */
export function csrfMatches(sessionToken: string, given: string | undefined): boolean {
  return given !== undefined && sameSecret(given, csrfTokenFor(sessionToken));
}
