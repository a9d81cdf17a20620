import { LoupeError, type Session, type SignIn } from '@loupe/contract';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import type { SessionVerifier } from '../identity/authenticator.ts';
import { verifyPassword } from '../identity/password.ts';
import { newId } from '../ids.ts';
import { AttemptThrottle } from './attempt-throttle.ts';
import { SessionStore, type StoredSession } from './session-store.ts';
import { csrfMatches, csrfTokenFor, generateSessionToken, hashSessionToken } from './session-token.ts';

/**
 * A session lasts 30 days from the last time the dashboard was opened (sliding): someone who
 * uses it weekly is never signed out, a forgotten browser is after a month.
 */
export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;
/**
 * Slows password guessing against one account (DESIGN.md §5): at most 10 failed sign-ins per
 * email in 15 minutes, on top of scrypt's ~120 ms per try. Counted per email rather than per
 * address, since behind a proxy every client has the proxy's address; the price is that
 * someone who knows an email can make its owner wait out the window.
 */
const signInThrottle = () =>
  new AttemptThrottle({ attempts: 10, windowMs: 15 * 60_000, refusal: 'Too many sign-in attempts for this email' });
/** The expiry moves at most once a day, so opening the dashboard rarely writes. */
const EXTEND_AFTER_MS = 24 * 3_600_000;

/**
 * Compared against when the email is unknown or has no password yet, so a sign-in takes as
 * long either way and the answer's timing does not tell whether an account exists.
 */
const DECOY_HASH = 'scrypt$32768$8$1$bG91cGUtZGVjb3ktc2FsdA$Gx3sZ6yvN3l2Yj2n5xP8cQm4R1tVwZ0aBcDeFgHiJkM';

export interface StartedSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  session: Session;
}

/** Signing in and out of the dashboard, and what a session cookie stands for (DESIGN.md §5). */
export class SessionService implements SessionVerifier {
  readonly #store: SessionStore;
  readonly #throttle: AttemptThrottle;

  constructor(database: Database, throttle = signInThrottle()) {
    this.#store = new SessionStore(database);
    this.#throttle = throttle;
  }

  /**
   * Email and password → a new session. Every failure is the same 401, whether the email is
   * unknown, has no password yet, or the password is wrong.
   */
  async signIn(input: SignIn): Promise<StartedSession> {
    this.#throttle.begin(input.email);
    const user = await this.#store.credentialsOf(input.email);
    const matches = await verifyPassword(input.password, user?.passwordHash ?? DECOY_HASH);
    if (!user || user.passwordHash === null || !matches) throw new LoupeError('invalid_credentials');
    this.#throttle.forget(input.email);
    return this.start(user.id);
  }

  /** A new session for a user whose identity is already proven (a sign-in, the first run). */
  async start(userId: string): Promise<StartedSession> {
    const at = now();
    await this.#store.deleteExpired(at);
    const token = generateSessionToken();
    const stored: StoredSession = { id: newId(), userId, expiresAt: expiryFrom(at) };
    await this.#store.insert({ ...stored, tokenHash: hashSessionToken(token), createdAt: at });
    return { token, session: await this.#describe(token, stored) };
  }

  /**
   * The session behind a cookie, for the dashboard's start, with its expiry moved forward
   * (`renewed`: the cookie must be sent again with the new lifetime).
   */
  async current(token: string): Promise<{ session: Session; renewed: boolean } | undefined> {
    const at = now();
    const stored = await this.#store.findLive(hashSessionToken(token), at);
    if (!stored) return undefined;
    const renewed = Date.parse(expiryFrom(at)) - Date.parse(stored.expiresAt) > EXTEND_AFTER_MS;
    if (renewed) {
      stored.expiresAt = expiryFrom(at);
      await this.#store.extend(stored.id, stored.expiresAt);
    }
    return { session: await this.#describe(token, stored), renewed };
  }

  async signOut(token: string): Promise<void> {
    await this.#store.deleteByHash(hashSessionToken(token));
  }

  async userOf(token: string): Promise<{ userId: string; sessionId: string } | undefined> {
    const stored = await this.#store.findLive(hashSessionToken(token), now());
    return stored && { userId: stored.userId, sessionId: stored.id };
  }

  csrfMatches(token: string, given: string | undefined): boolean {
    return csrfMatches(token, given);
  }

  async #describe(token: string, stored: StoredSession): Promise<Session> {
    const [user, workspaces] = await Promise.all([this.#store.user(stored.userId), this.#store.workspacesOf(stored.userId)]);
    // The user row cascades to its sessions, so a live session always has its user.
    if (!user) throw new Error(`session ${stored.id} has no user`);
    return { user, workspaces, csrfToken: csrfTokenFor(token), expiresAt: stored.expiresAt };
  }
}

function expiryFrom(at: string): string {
  return new Date(Date.parse(at) + SESSION_LIFETIME_MS).toISOString();
}
