import type { z } from 'zod';

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/**
 * The schema a wrapper stands for (`x.optional()` → `x`, a pipe → its input, a lazy schema →
 * what it resolves to), or undefined for a schema that wraps nothing: what a walker over a
 * schema's shape (free-text-fields.ts, the fuzz pass's samples) looks through.
 */
export function wrappedSchema(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as unknown as { type: string; innerType?: z.ZodType; in?: z.ZodType; getter?: () => z.ZodType };
  if (wrappers.has(def.type)) return def.innerType;
  if (def.type === 'pipe') return def.in;
  if (def.type === 'lazy') return def.getter!();
  return undefined;
}
