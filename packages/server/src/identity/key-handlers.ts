import type { Handlers } from '../http/handlers.ts';
import type { ApiKeyService } from './api-key-service.ts';

type KeyHandlers = Pick<Handlers, 'listApiKeys' | 'createApiKey' | 'deleteApiKey'>;

export function keyHandlers(keys: ApiKeyService): KeyHandlers {
  return {
    listApiKeys: ({ query }, { principal }) => keys.list(principal, query),
    createApiKey: ({ body }, { principal }) => keys.create(principal, body),
    deleteApiKey: ({ params }, { principal }) => keys.delete(principal, params.keyId),
  };
}
