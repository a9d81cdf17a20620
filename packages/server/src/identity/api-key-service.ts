import { type ApiKey, type CreateApiKey, type CreatedApiKey, LoupeError, type Page } from '@loupe/contract';
import { now } from '../clock.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../principal.ts';
import type { ApiKeyStore } from './api-key-store.ts';
import type { KeysChanged } from './key-cache.ts';
import { generateKeySecret, hashKeySecret, keyPrefix } from './key-secret.ts';

export class ApiKeyService {
  readonly #keys: ApiKeyStore;
  readonly #keysChanged: KeysChanged;

  constructor(keys: ApiKeyStore, keysChanged: KeysChanged) {
    this.#keys = keys;
    this.#keysChanged = keysChanged;
  }

  list(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<ApiKey>> {
    return this.#keys.list(principal.workspaceId, page);
  }

  /**
   * A new key for the caller in the caller's workspace. Its scopes can never exceed the
   * calling key's own, nor its life the calling key's: a narrow or short-lived key cannot
   * mint a broader or lasting one. Both refusals are 403: the request is well formed, the
   * caller lacks the right to grant it (an expiry in the past is the 400).
   */
  async create(principal: Principal, input: CreateApiKey): Promise<CreatedApiKey> {
    const scopes = input.scopes ?? [...principal.scopes];
    const beyond = scopes.filter((scope) => !principal.scopes.includes(scope));
    if (beyond.length > 0) {
      throw new LoupeError('forbidden', {
        message: `A key cannot grant scopes its creator lacks: ${beyond.join(', ')}.`,
        extra: { missingScopes: beyond },
      });
    }
    const createdAt = now();
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString();
    if (expiresAt !== null && expiresAt <= createdAt) {
      throw new LoupeError('validation_failed', {
        details: { fieldErrors: { expiresAt: ['Must be in the future.'] }, formErrors: [] },
      });
    }
    const limit = principal.keyExpiresAt;
    if (limit !== null && (expiresAt === null || expiresAt > limit)) {
      throw new LoupeError('forbidden', {
        message: `A key cannot outlive the key that creates it: give an expiresAt no later than ${limit}.`,
        extra: { maxExpiresAt: limit },
      });
    }
    const secret = generateKeySecret();
    const key = await this.#keys.insert({
      id: newId(),
      workspaceId: principal.workspaceId,
      userId: principal.userId,
      name: input.name,
      prefix: keyPrefix(secret),
      secretHash: hashKeySecret(secret),
      scopes,
      expiresAt,
      createdAt,
    });
    return { ...key, key: secret };
  }

  async delete(principal: Principal, keyId: string): Promise<{ deleted: true }> {
    if (!(await this.#keys.delete(principal.workspaceId, keyId))) throw new LoupeError('not_found');
    this.#keysChanged();
    return { deleted: true };
  }
}
