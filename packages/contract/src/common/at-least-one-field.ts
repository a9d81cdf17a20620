import type { z } from 'zod';

/**
 * `schema`, refusing an object with no field (an update that changes nothing, transforms that
 * transform nothing), and saying so in its JSON Schema (`minProperties: 1`) so the OpenAPI
 * document refuses what the server refuses.
 */
export function atLeastOneField<S extends z.ZodObject>(schema: S, message: string): S {
  return schema.refine((value) => Object.keys(value).length > 0, message).meta({ minProperties: 1 });
}
