import { LoupeError, roleScopes, type OperationDefinition, type Scope } from '@loupe/contract';
import { now } from '../clock.ts';
import type { ApiKeyStore } from './api-key-store.ts';
import { hashKeySecret } from './key-secret.ts';
import type { Principal } from './principal.ts';
import type { WorkspaceStore } from './workspace-store.ts';

/** `last_used_at` is written at most this often per key, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Credentials {
  authorization?: string;
  /** The `x-service-team` header. */
  team?: string;
}

/**
 * Turns a request's bearer key (and workspace header) into a Principal, or the 401/400/403
 * of DESIGN.md §5: unknown, revoked or expired key → 401; workspace API without the header
 * → 400; a workspace the key's user is not in → 403; a missing scope → 403.
 */
export class Authenticator {
  readonly #keys: ApiKeyStore;
  readonly #workspaces: WorkspaceStore;
  readonly #onTouchError: (error: unknown) => void;

  constructor(keys: ApiKeyStore, workspaces: WorkspaceStore, onTouchError: (error: unknown) => void) {
    this.#keys = keys;
    this.#workspaces = workspaces;
    this.#onTouchError = onTouchError;
  }

  async authenticate(credentials: Credentials, operation: OperationDefinition): Promise<Principal> {
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization ?? '')?.[1];
    if (!secret) throw new LoupeError('unauthorized', { message: 'Send an API key as `Authorization: Bearer <key>`.' });
    const key = await this.#keys.findByHash(hashKeySecret(secret));
    if (!key) throw new LoupeError('unauthorized', { message: 'This API key is not valid or has been revoked.' });
    const at = now();
    if (key.expiresAt !== null && key.expiresAt <= at) {
      throw new LoupeError('unauthorized', { message: 'This API key has expired.' });
    }

    const workspaceId = this.#workspaceOf(credentials, operation) ?? key.workspaceId;
    // The key's own workspace comes with the key; another one named by the header is looked up.
    const role = workspaceId === key.workspaceId ? key.role : await this.#workspaces.role(workspaceId, key.userId);
    if (!role) throw new LoupeError('not_a_member');

    const allowed = new Set(roleScopes[role]);
    const scopes = key.scopes.filter((scope) => allowed.has(scope));
    const missing = operation.scopes.filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) {
      throw new LoupeError('forbidden', {
        message: `This needs the ${missing.join(', ')} scope${missing.length > 1 ? 's' : ''}, which this key (role ${role}) does not have.`,
        extra: { missingScopes: missing satisfies Scope[] },
      });
    }

    if (key.lastUsedAt === null || Date.parse(at) - Date.parse(key.lastUsedAt) > TOUCH_INTERVAL_MS) {
      this.#keys.touch(key.id, at).catch(this.#onTouchError);
    }
    return { userId: key.userId, workspaceId, role, scopes, keyId: key.id };
  }

  /** The workspace named by the header, for workspace API operations that need it. */
  #workspaceOf(credentials: Credentials, operation: OperationDefinition): string | undefined {
    if (operation.api !== 'workspace' || operation.teamHeader === false) return undefined;
    const team = credentials.team?.trim();
    if (!team) throw new LoupeError('team_header_required');
    return team;
  }
}
