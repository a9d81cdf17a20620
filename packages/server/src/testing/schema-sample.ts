import { wrappedSchema } from '@loupe/contract';
import type { z } from 'zod';

type Def = { type: string } & Record<string, any>;
const defOf = (schema: unknown): Def => (schema as z.ZodType)._zod.def as unknown as Def;

/** What a sample string field holds when its name or format says what it is. */
export interface SampleValues {
  /** A real id for a field of this name (a random one is fine: the answer is then 404, still not 5xx). */
  id(field: string): string;
  /** An http(s) URL the server may fetch. */
  url: string;
}

function stringSample(schema: z.ZodType, values: SampleValues, field: string): string {
  const { format, minimum } = (schema as z.ZodString)._zod.bag as { format?: string; minimum?: number };
  if (format === 'uuid' || format === 'guid') return values.id(field);
  if (format === 'url') return values.url;
  if (format === 'email') return 'fuzz@example.test';
  if (format === 'datetime') return new Date(Date.now() + 3_600_000).toISOString();
  return 'x'.repeat(Math.max(1, minimum ?? 1));
}

/**
 * A small input `schema` accepts, made from its shape alone: every field (optional ones too,
 * so an update has something to change), the first option of an enum or union, the least
 * number allowed. Refinements (a cron expression, "exactly one of") may still refuse it: the
 * caller checks with safeParse and falls back to an input it knows.
 */
export function schemaSample(schema: z.ZodType, values: SampleValues, field = '', depth = 0): unknown {
  const def = defOf(schema);
  if (depth > 12) return undefined;
  const next = (child: unknown, name = field) => schemaSample(child as z.ZodType, values, name, depth + 1);
  const inner = wrappedSchema(schema);
  if (inner) return next(inner);
  switch (def.type) {
    case 'string':
      return stringSample(schema, values, field);
    case 'number':
    case 'int': {
      const { minimum, maximum } = (schema as z.ZodNumber)._zod.bag as { minimum?: number; maximum?: number };
      return Math.min(Math.max(1, minimum ?? 1), maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    case 'literal':
      return [...(def.values as unknown[])][0];
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'null':
      return null;
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>)
          .map(([key, child]) => [key, next(child, key)] as const)
          .filter(([, value]) => value !== undefined),
      );
    case 'array': {
      const { minimum } = (schema as z.ZodArray)._zod.bag as { minimum?: number };
      return Array.from({ length: Math.max(1, minimum ?? 1) }, () => next(def.element));
    }
    case 'tuple':
      return (def.items as z.ZodType[]).map((item) => next(item));
    case 'record':
      return {};
    case 'union':
      return next((def.options as z.ZodType[])[0]);
    default:
      return undefined;
  }
}
