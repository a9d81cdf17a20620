import { z } from 'zod';
import { distinctItems } from '../common/distinct-items.ts';
import { freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { Scope } from './roles.ts';

export const ApiKey = z
  .object({
    id: Id,
    name: z.string(),
    prefix: z.string().describe('The first characters of the secret, to recognise the key.'),
    scopes: z.array(Scope),
    userId: Id,
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreatedApiKey = ApiKey.extend({
  key: z.string().describe('The secret. Shown in this answer only: store it now.'),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const CreateApiKey = z.strictObject({
  name: freeText({ max: 100 }),
  scopes: distinctItems(z.array(Scope).min(1), 'Scopes must not repeat.')
    .optional()
    .describe("Defaults to every scope the caller's key holds."),
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('When the key stops working; omit for a key that does not expire.'),
});
export type CreateApiKey = z.infer<typeof CreateApiKey>;
