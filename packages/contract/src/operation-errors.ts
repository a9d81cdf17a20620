import { z } from 'zod';
import type { ErrorCode } from './common/errors.ts';
import { type OperationDefinition, querySchema } from './operation.ts';

/** Every operation may answer these: a refused input, headers over 16 KB, a server fault, a server shutting down. */
const everyOperation: ErrorCode[] = ['validation_failed', 'headers_too_large', 'internal_error', 'not_ready'];
/**
 * Any call that may carry a body and write: JSON that does not parse, too large, of another media
 * type, or a disk too full to write on.
 */
const withBody: ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type', 'insufficient_storage'];

/** Whether the operation names a resource by id (in its path, query or body): the id may be unknown. */
function namesResources(operation: OperationDefinition): boolean {
  if (operation.params) return true;
  const inputs = [querySchema(operation), operation.body].filter((schema): schema is z.ZodType => schema !== undefined);
  return inputs.some((schema) =>
    JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })).includes('"format":"uuid"'),
  );
}

/**
 * Every error an operation can answer, derived from its definition (the one place the OpenAPI
 * document's answers come from): the errors of any call, those of how it is authenticated, of
 * the ids it names, of a body, of spending credits, and those particular to it.
 */
export function declaredErrors(operation: OperationDefinition): ErrorCode[] {
  const errors: ErrorCode[] = [...everyOperation];
  if (operation.credentials === 'optional') errors.push('unauthorized');
  else if (!operation.public) errors.push('unauthorized', 'forbidden');
  if (operation.api === 'workspace' && operation.teamHeader !== false && !operation.public)
    errors.push('team_header_required', 'not_a_member');
  if (namesResources(operation)) errors.push('not_found');
  if (operation.method !== 'GET') errors.push(...withBody);
  if (operation.spendsCredits) errors.push('insufficient_credits');
  errors.push(...(operation.errors ?? []));
  return [...new Set(errors)];
}
