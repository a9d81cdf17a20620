import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import { ApiKey, CreateApiKey, CreatedApiKey } from './api-key.ts';

const KeyParams = z.strictObject({ keyId: Id });

export const keyOperations = [
  defineOperation({
    id: 'listApiKeys',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/keys',
    summary: 'List API keys',
    description: "Lists the workspace's API keys, without their secrets. Free.",
    tag: 'Keys',
    scopes: ['team:admin'],
    paged: true,
    output: ApiKey,
  }),
  defineOperation({
    id: 'createApiKey',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/keys',
    summary: 'Create an API key',
    description:
      'Creates an API key for the calling user in this workspace. The secret (`key`) is in this answer only. Scopes cannot exceed those of the calling key, and a key created with a key that expires must expire no later than it (403 forbidden with `maxExpiresAt` otherwise, also when `expiresAt` is left out).',
    tag: 'Keys',
    scopes: ['team:admin'],
    body: CreateApiKey,
    output: CreatedApiKey,
    status: 201,
  }),
  defineOperation({
    id: 'deleteApiKey',
    api: 'workspace',
    method: 'DELETE',
    path: '/api/v1/keys/{keyId}',
    summary: 'Revoke an API key',
    description: 'Revokes a key at once: later requests with it get 401.',
    tag: 'Keys',
    scopes: ['team:admin'],
    params: KeyParams,
    output: Deleted,
  }),
];
