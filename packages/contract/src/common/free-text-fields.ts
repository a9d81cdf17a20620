import type { z } from 'zod';
import type { OperationDefinition } from '../operation.ts';
import { freeTextKind } from './free-text.ts';
import { wrappedSchema } from './schema-wrapper.ts';

/** One free-text field an operation takes, and how to send a value in it. */
export interface FreeTextField {
  part: 'body' | 'query' | 'upload';
  /** Dotted, as validation failures name it: `pack.rules.0.title`. */
  path: string;
  multiline: boolean;
  /** The smallest input of `part` that puts `value` at `path` (other fields may be missing). */
  place(value: string): unknown;
}

interface Found {
  path: string[];
  multiline: boolean;
  place(value: string): unknown;
}

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: unknown): Def => (schema as z.ZodType)._zod.def as unknown as Def;

/**
 * Walks a schema breadth-first for `freeText` fields. Each field schema is reported once, at
 * its shallowest path, so the eight nesting levels of a rule condition (which share `label`)
 * give one place, not eight.
 */
function findFreeText(root: z.ZodType): Found[] {
  const found: Found[] = [];
  const seen = new Set<unknown>();
  const queue: { schema: z.ZodType; path: string[]; place: (value: unknown) => unknown }[] = [
    { schema: root, path: [], place: (value) => value },
  ];
  while (queue.length > 0) {
    const { schema, path, place } = queue.shift()!;
    if (seen.has(schema)) continue;
    seen.add(schema);
    const kind = freeTextKind(schema);
    if (kind) {
      found.push({ path, multiline: kind.multiline, place: (value) => place(value) });
      continue;
    }
    const def = defOf(schema);
    const inner = wrappedSchema(schema);
    if (inner) {
      queue.push({ schema: inner, path, place });
      continue;
    }
    const visit = (child: unknown, step: string | undefined, wrap: (value: unknown) => unknown) =>
      queue.push({ schema: child as z.ZodType, path: step === undefined ? path : [...path, step], place: (value) => place(wrap(value)) });
    switch (def.type) {
      case 'object': {
        // A variant of a discriminated union needs its tag to be read as that variant.
        const tags: Record<string, unknown> = {};
        for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
          const values = (field._zod as { values?: Set<unknown> }).values;
          if (values?.size === 1) tags[key] = [...values][0];
        }
        for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
          visit(field, key, (value) => ({ ...tags, [key]: value }));
        }
        break;
      }
      case 'array':
        visit(def.element, '0', (value) => [value]);
        break;
      case 'record':
        visit(def.valueType, 'key', (value) => ({ key: value }));
        break;
      case 'union':
        for (const option of def.options as z.ZodType[]) visit(option, undefined, (value) => value);
        break;
      case 'intersection':
        visit(def.left, undefined, (value) => value);
        visit(def.right, undefined, (value) => value);
        break;
      case 'tuple':
        (def.items as z.ZodType[]).forEach((item, index) =>
          visit(item, String(index), (value) => Object.assign(new Array(index + 1).fill(null), { [index]: value })),
        );
        break;
    }
  }
  return found;
}

/** Every free-text field of an operation's body, query and upload fields. */
export function freeTextFields(operation: OperationDefinition): FreeTextField[] {
  const parts: [FreeTextField['part'], z.ZodType | undefined][] = [
    ['body', operation.body],
    ['query', operation.query],
    ['upload', operation.upload?.fields],
  ];
  return parts.flatMap(([part, schema]) =>
    schema ? findFreeText(schema).map(({ path, multiline, place }) => ({ part, path: path.join('.'), multiline, place })) : [],
  );
}
