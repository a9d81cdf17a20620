import { LoupeError, type OperationDefinition, type Role, roleScopes, type Scope } from '@loupe/contract';
import { now } from '../clock.ts';
import type { CallerIdentifier, Credentials } from '../http/credentials.ts';
import type { Caller, Principal } from '../principal.ts';
import type { ApiKeyStore, StoredKey } from './api-key-store.ts';
import { bearerSecret } from './bearer-secret.ts';
import type { KeyCache } from './key-cache.ts';
import { hashKeySecret } from './key-secret.ts';
import type { WorkspaceStore } from './workspace-store.ts';

/** `last_used_at` is written at most this often per key, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

/** Methods that change nothing: a session needs no CSRF token for them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The dashboard's sessions (packages/server/src/sessions/), as authentication needs them. */
export interface SessionVerifier {
  /** The signed-in user of a session token, or undefined when it is unknown or has expired. */
  userOf(token: string): Promise<{ userId: string; sessionId: string } | undefined>;
  /** Whether `given` is the session's CSRF token (compared in constant time). */
  csrfMatches(token: string, given: string | undefined): boolean;
}

/**
 * Turns a request's bearer key (and workspace header) into a Principal, or the 401/400/403
 * of DESIGN.md §5: unknown, revoked or expired key → 401; workspace API without the header
 * → 400; a workspace the key's user is not in → 403; a missing scope → 403.
 *
 * A request with no Authorization header but a dashboard session cookie acts as the signed-in
 * user instead, with every scope their role allows; a session belongs to no workspace, so the
 * header names it on both APIs, and its writes need the session's CSRF token (403 csrf_failed).
 */
export class Authenticator implements CallerIdentifier {
  readonly #keys: ApiKeyStore;
  readonly #cache: KeyCache;
  readonly #workspaces: WorkspaceStore;
  readonly #onTouchError: (error: unknown) => void;
  readonly #sessions: SessionVerifier | undefined;

  constructor(
    keys: { store: ApiKeyStore; cache: KeyCache },
    workspaces: WorkspaceStore,
    onTouchError: (error: unknown) => void,
    sessions?: SessionVerifier,
  ) {
    this.#keys = keys.store;
    this.#cache = keys.cache;
    this.#workspaces = workspaces;
    this.#onTouchError = onTouchError;
    this.#sessions = sessions;
  }

  async authenticate(credentials: Credentials, operation: OperationDefinition): Promise<Principal> {
    if (this.#usesSession(credentials)) return this.#withSession(credentials.session as string, credentials, operation);
    const key = await this.#liveKey(credentials);
    const workspaceId = this.#workspaceOf(credentials, operation) ?? key.workspaceId;
    // The key's own workspace comes with the key; another one named by the header is looked up.
    const role = workspaceId === key.workspaceId ? key.role : await this.#workspaces.role(workspaceId, key.userId);
    if (!role) throw new LoupeError('not_a_member');

    const allowed = new Set(roleScopes[role]);
    const scopes = key.scopes.filter((scope) => allowed.has(scope));
    requireScopes(operation, scopes, `this key (role ${role})`);
    this.#touch(key);
    return { userId: key.userId, workspaceId, role, scopes, keyId: key.id, sessionId: null, keyExpiresAt: key.expiresAt };
  }

  /**
   * The account behind the key or session, in no workspace: for the operations that act for
   * an account itself (accepting an invite). A key still has to be live and its user still a
   * member of the key's workspace; a session's writes still need its CSRF token.
   */
  async identify(credentials: Credentials, operation: OperationDefinition): Promise<Caller> {
    if (this.#usesSession(credentials)) {
      const { userId, sessionId } = await this.#signedIn(credentials.session as string, credentials, operation);
      return { userId, keyId: null, sessionId, keyExpiresAt: null };
    }
    const key = await this.#liveKey(credentials);
    if (!key.role) throw new LoupeError('not_a_member');
    this.#touch(key);
    return { userId: key.userId, keyId: key.id, sessionId: null, keyExpiresAt: key.expiresAt };
  }

  /** An API key wins over a cookie: a script's explicit key must not turn into a browser session. */
  #usesSession(credentials: Credentials): boolean {
    return credentials.authorization === undefined && credentials.session !== undefined && this.#sessions !== undefined;
  }

  /** The bearer key, known and not expired; 401 otherwise. */
  async #liveKey(credentials: Credentials): Promise<StoredKey> {
    const secret = bearerSecret(credentials.authorization);
    if (!secret) throw new LoupeError('unauthorized', { message: 'Send an API key as `Authorization: Bearer <key>`.' });
    const key = await this.#cache.find(hashKeySecret(secret), (hash) => this.#keys.findByHash(hash));
    if (!key) throw new LoupeError('unauthorized', { message: 'This API key is not valid or has been revoked.' });
    if (key.expiresAt !== null && key.expiresAt <= now()) {
      throw new LoupeError('unauthorized', { message: 'This API key has expired.' });
    }
    return key;
  }

  #touch(key: StoredKey): void {
    const at = now();
    if (key.lastUsedAt === null || Date.parse(at) - Date.parse(key.lastUsedAt) > TOUCH_INTERVAL_MS) {
      // The cached key too, or every request it serves would write the time again.
      key.lastUsedAt = at;
      this.#keys.touch(key.id, at).catch(this.#onTouchError);
    }
  }

  async #signedIn(token: string, credentials: Credentials, operation: OperationDefinition): Promise<{ userId: string; sessionId: string }> {
    const sessions = this.#sessions as SessionVerifier;
    const signedIn = await sessions.userOf(token);
    if (!signedIn) throw new LoupeError('unauthorized', { message: 'The session has ended: sign in again.' });
    if (!SAFE_METHODS.has(operation.method) && !sessions.csrfMatches(token, credentials.csrfToken)) {
      throw new LoupeError('csrf_failed');
    }
    return signedIn;
  }

  async #withSession(token: string, credentials: Credentials, operation: OperationDefinition): Promise<Principal> {
    const { userId, sessionId } = await this.#signedIn(token, credentials, operation);
    let membership: { workspaceId: string; role: Role } | undefined;
    if (operation.api === 'workspace' && operation.teamHeader === false) {
      // The operations about the user rather than a workspace (`GET /teams`) act in their first one.
      membership = await this.#workspaces.firstMembership(userId);
    } else {
      const named = credentials.team?.trim();
      if (!named) {
        throw new LoupeError('team_header_required', {
          message: 'A signed-in session names its workspace in the x-service-team header, on both APIs.',
        });
      }
      const role = await this.#workspaces.role(named, userId);
      membership = role && { workspaceId: named, role };
    }
    if (!membership) throw new LoupeError('not_a_member');
    const scopes = roleScopes[membership.role];
    requireScopes(operation, scopes, `your role (${membership.role})`);
    return { userId, workspaceId: membership.workspaceId, role: membership.role, scopes, keyId: null, sessionId, keyExpiresAt: null };
  }

  /** The workspace named by the header, for workspace API operations that need it. */
  #workspaceOf(credentials: Credentials, operation: OperationDefinition): string | undefined {
    if (operation.api !== 'workspace' || operation.teamHeader === false) return undefined;
    const team = credentials.team?.trim();
    if (!team) throw new LoupeError('team_header_required');
    return team;
  }
}

function requireScopes(operation: OperationDefinition, scopes: readonly Scope[], holder: string): void {
  const missing = operation.scopes.filter((scope) => !scopes.includes(scope));
  if (missing.length > 0) {
    throw new LoupeError('forbidden', {
      message: `This needs the ${missing.join(', ')} scope${missing.length > 1 ? 's' : ''}, which ${holder} does not have.`,
      extra: { missingScopes: missing satisfies Scope[] },
    });
  }
}
