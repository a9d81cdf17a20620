import { randomUUID } from 'node:crypto';
import type { OpenApiDocument, OpenApiOperation } from './openapi-conformance.ts';
import type { RawRequest } from './raw-request.ts';

type JsonSchema = Record<string, any>;

/** What the generator fills a uuid or uri field with: real ids reach real rows. */
export interface GeneratedValues {
  id(field: string): string;
  url: string;
  pathParam(name: string): string;
  headers: Record<string, string>;
}

export interface GeneratedCase {
  label: string;
  request: RawRequest;
}

/**
 * Requests made from the OpenAPI document alone, in the way Schemathesis makes them: inputs its
 * schemas accept (positive) and inputs they refuse (negative: a wrong type, a required field
 * missing, a value out of range). Whatever the server answers must be declared.
 */
export function openApiCases(
  document: OpenApiDocument,
  method: string,
  path: string,
  values: GeneratedValues,
  random: () => number,
  count: number,
): GeneratedCase[] {
  const item = document.paths[path]![method.toLowerCase()]!;
  const generator = new Generator(document, values, random);
  const cases: GeneratedCase[] = [];
  for (let index = 0; index < count; index++) {
    const negative = index % 2 === 1;
    const query = generator.query(item, negative && random() < 0.5);
    const bodySchema = item.requestBody?.content['application/json']?.schema;
    let body: unknown;
    let label = negative ? 'negative' : 'positive';
    if (bodySchema) {
      body = generator.value(bodySchema, '', 0);
      if (negative && query.mutated === undefined) {
        const mutation = generator.mutate(bodySchema, body);
        body = mutation.value;
        label += ` body ${mutation.label}`;
      }
    }
    if (query.mutated) label += ` query ${query.mutated}`;
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values.pathParam(name)));
    const search = new URLSearchParams(query.pairs).toString();
    const headers: Record<string, string> = { ...values.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    cases.push({
      label: `${label} #${index}`,
      request: {
        method,
        path: search ? `${filled}?${search}` : filled,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      },
    });
  }
  return cases;
}

class Generator {
  private readonly document: OpenApiDocument;
  private readonly values: GeneratedValues;
  private readonly random: () => number;

  constructor(document: OpenApiDocument, values: GeneratedValues, random: () => number) {
    this.document = document;
    this.values = values;
    this.random = random;
  }

  private resolve(schema: JsonSchema): JsonSchema {
    let resolved = schema;
    while (typeof resolved.$ref === 'string') {
      const name = resolved.$ref.replace('#/components/schemas/', '');
      resolved = {
        ...this.document.components.schemas[name],
        ...Object.fromEntries(Object.entries(resolved).filter(([k]) => k !== '$ref')),
      };
    }
    return resolved;
  }

  private chance(probability: number): boolean {
    return this.random() < probability;
  }

  private integer(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  query(item: OpenApiOperation, negative: boolean): { pairs: [string, string][]; mutated?: string } {
    const parameters = (item.parameters ?? []).filter((p) => p.in === 'query' && p.name !== 'cursor');
    const pairs: [string, string][] = [];
    for (const parameter of parameters) {
      if (!parameter.required && !this.chance(0.5)) continue;
      const value = this.value(parameter.schema, parameter.name, 0);
      if (value !== undefined) pairs.push([parameter.name, Array.isArray(value) ? value.join(',') : String(value)]);
    }
    if (!negative || parameters.length === 0) return { pairs };
    const target = parameters[this.integer(0, parameters.length - 1)]!;
    const others = pairs.filter(([name]) => name !== target.name);
    const schema = this.resolve(target.schema);
    const bad = schema.type === 'integer' || schema.type === 'number' ? 'not-a-number' : schema.enum ? '__not_an_option__' : '';
    return { pairs: [...others, [target.name, bad]], mutated: `${target.name}=${JSON.stringify(bad)}` };
  }

  /** A value `schema` accepts, as far as the schema alone tells. */
  value(input: JsonSchema | boolean, field: string, depth: number): unknown {
    if (typeof input === 'boolean') return 'x';
    const schema = this.resolve(input);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[this.integer(0, schema.enum.length - 1)];
    const options = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(options)) {
      const usable = options.filter((o: JsonSchema) => this.resolve(o).type !== 'null' || options.length === 1);
      return this.value(usable[this.integer(0, usable.length - 1)], field, depth);
    }
    if (Array.isArray(schema.allOf))
      return this.value(Object.assign({}, ...schema.allOf.map((s: JsonSchema) => this.resolve(s))), field, depth);
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
    switch (type) {
      case 'object':
        return this.object(schema, depth);
      case 'array': {
        const min = schema.minItems ?? 0;
        const max = Math.min(schema.maxItems ?? 2, min + 2);
        const length = depth > 3 ? min : this.integer(min, max);
        const items = Array.from({ length }, () => this.value(schema.items ?? {}, field, depth + 1));
        return schema.uniqueItems
          ? items.filter((item, at) => items.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === at)
          : items;
      }
      case 'string':
        return this.string(schema, field);
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
        const max = Math.min(schema.maximum ?? min + 100, min + 100);
        return type === 'integer' ? this.integer(Math.ceil(min), Math.floor(max)) : min + this.random() * (max - min);
      }
      case 'boolean':
        return this.chance(0.5);
      case 'null':
        return null;
      default:
        return 'x';
    }
  }

  private object(schema: JsonSchema, depth: number): Record<string, unknown> {
    // A `not` (fields that may not go together): draw again until the object stays clear of it.
    for (let attempt = 0; attempt < 20; attempt++) {
      const object = this.objectOnce(schema, depth);
      if (!schema.not || !matchesConstants(schema.not, object)) return object;
    }
    return {};
  }

  private objectOnce(schema: JsonSchema, depth: number): Record<string, unknown> {
    const required = new Set<string>(schema.required ?? []);
    const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
    const object: Record<string, unknown> = {};
    for (const [name, property] of properties) {
      if (!required.has(name) && (depth > 2 || !this.chance(0.6))) continue;
      object[name] = this.value(property, name, depth + 1);
    }
    // At least the declared minimum of fields, taken in order from the optional ones.
    for (const [name, property] of properties) {
      if (Object.keys(object).length >= (schema.minProperties ?? 0)) break;
      if (!(name in object)) object[name] = this.value(property, name, depth + 1);
    }
    return object;
  }

  private string(schema: JsonSchema, field: string): string {
    if (schema.format === 'uuid') return this.chance(0.8) ? this.values.id(field) : randomUUID();
    if (schema.format === 'uri') return this.values.url;
    if (schema.format === 'email') return `gen${this.integer(0, 9999)}@example.test`;
    if (schema.format === 'date-time') return new Date(Date.now() + this.integer(1, 48) * 3_600_000).toISOString();
    if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
    if (schema.pattern) return patternSample(schema);
    const min = schema.minLength ?? 1;
    const max = Math.min(schema.maxLength ?? min + 12, min + 12);
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-_';
    return Array.from({ length: this.integer(min, max) }, () => letters[this.integer(0, letters.length - 1)]).join('');
  }

  /** `value` changed into something its schema refuses. */
  mutate(input: JsonSchema, value: unknown): { label: string; value: unknown } {
    const schema = this.resolve(input);
    if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object);
      const required: string[] = schema.required ?? [];
      const choice = this.integer(0, 3);
      if (choice === 0 && required.length > 0) {
        const missing = required[this.integer(0, required.length - 1)]!;
        const { [missing]: _, ...rest } = object;
        return { label: `without ${missing}`, value: rest };
      }
      if (choice === 1 && schema.additionalProperties === false)
        return { label: 'with an unknown field', value: { ...object, unknownField: 1 } };
      if (choice === 2 && keys.length > 0) {
        const key = keys[this.integer(0, keys.length - 1)]!;
        const inner = this.mutate(schema.properties[key] ?? {}, object[key]);
        return { label: `${key}: ${inner.label}`, value: { ...object, [key]: inner.value } };
      }
      return { label: 'as an array', value: [object] };
    }
    if (typeof value === 'string')
      return this.chance(0.5)
        ? { label: 'a number for a string', value: 7 }
        : { label: 'a long string', value: 'x'.repeat((schema.maxLength ?? 10_000) + 1) };
    if (typeof value === 'number') {
      if (schema.maximum !== undefined && this.chance(0.5)) return { label: 'above its maximum', value: schema.maximum + 1 };
      return { label: 'a string for a number', value: String(value) };
    }
    if (typeof value === 'boolean') return { label: 'a string for a boolean', value: 'yes' };
    if (Array.isArray(value)) return { label: 'an object for an array', value: { 0: value[0] } };
    return { label: 'null', value: null };
  }
}

/** Whether `object` has every field `schema` requires with the constant it names: the `not` shapes of this API. */
function matchesConstants(schema: JsonSchema, object: Record<string, unknown>): boolean {
  const required: string[] = schema.required ?? [];
  return required.every(
    (name) => name in object && (schema.properties?.[name]?.const === undefined || schema.properties[name].const === object[name]),
  );
}

/** Strings that the patterns of this API's fields (hex colours, hostnames, rule ids, slugs, …) take. */
const PATTERN_CANDIDATES = [
  'abcdef',
  'a1b2c3',
  'images.example.com',
  'content/placeholder-copy',
  'custom/generated-rule',
  'generated-name',
  'gen_1',
  'a',
  '123',
  'x'.repeat(16),
];

/** A string for a patterned field: the first candidate the pattern and the length bounds accept, else a letter. */
function patternSample(schema: JsonSchema): string {
  const pattern = new RegExp(schema.pattern as string, 'u');
  const fits = (value: string) =>
    pattern.test(value) && value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
  return PATTERN_CANDIDATES.find(fits) ?? 'a';
}
