import type { z } from 'zod';

/**
 * `schema`, refusing an array that repeats an item, and saying so in its JSON Schema
 * (`uniqueItems`) so the OpenAPI document refuses what the server refuses.
 */
export function distinctItems<S extends z.ZodArray>(schema: S, message: string): S {
  return schema.refine((items) => new Set(items).size === items.length, message).meta({ uniqueItems: true });
}
