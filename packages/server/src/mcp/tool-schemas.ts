import { Id, NESTING_LEVEL_OF, type OperationDefinition, querySchema } from '@loupe/contract';
import { z } from 'zod';
import { needsWorkspace } from './workspace-choice.ts';

/** How long stream_crawl_events waits for the crawl to end, by default and at most: inside the 60 s an MCP client usually gives a request. */
export const DEFAULT_WAIT_SECONDS = 15;
const MAX_WAIT_SECONDS = 50;

/**
 * The inputs a tool takes beyond its operation's own (path parameters, query, `body`): the
 * workspace to act in, the credit guard of crawl starts, the bounded wait of the event stream,
 * and an upload's file as base64 (MCP carries JSON only).
 */
function mcpOnlyFields(operation: OperationDefinition, maxUploadBytes: number): Record<string, z.ZodType> {
  const fields: Record<string, z.ZodType> = {};
  if (needsWorkspace(operation)) {
    fields.workspaceId = Id.optional().describe(
      'The workspace to act in (list_workspaces lists yours). Needed only when you are in several and the connection names none.',
    );
  }
  if (operation.spendsCredits) {
    fields.maxCredits = z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Refuse, without starting anything, when the crawl could reserve more credits than this (its maxPages, clamped to the plan cap).',
      );
  }
  if (operation.stream) {
    fields.waitSeconds = z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(DEFAULT_WAIT_SECONDS)
      .describe('How long to collect events before answering, if the crawl has not ended by then.');
  }
  if (operation.upload) {
    fields.upload = z
      .strictObject({
        file: z
          .base64()
          .max(Math.ceil(maxUploadBytes / 3) * 4)
          .describe(`The file's bytes, base64-encoded (at most ${maxUploadBytes} bytes once decoded).`),
        filename: z.string().min(1).max(255),
        contentType: z.string().min(1).max(255).optional().describe('As declared; the server trusts only what it decodes.'),
        fields: operation.upload.fields.optional(),
      })
      .optional()
      .describe('A file to upload. Send either this or `body` (to import from a URL), not both.');
  }
  return fields;
}

export function mcpOnlyFieldNames(operation: OperationDefinition): string[] {
  return Object.keys(mcpOnlyFields(operation, 1));
}

/**
 * A tool's arguments: the operation's path parameters and query (with `limit`/`cursor` when
 * paged) side by side, the JSON body under `body` — the SDK's request shape — and the MCP-only
 * fields. The schemas are the contract's own, so what the listing shows is what the API checks.
 */
export function toolInputSchema(operation: OperationDefinition, maxUploadBytes: number): z.ZodObject {
  const body = operation.body && (operation.upload ? operation.body.optional() : operation.body);
  const query = querySchema(operation)?.shape;
  return z.strictObject({
    ...operation.params?.shape,
    ...query,
    // A tool answers the next page's cursor in the page itself, not in a Link header.
    ...(operation.paged && query?.cursor ? { cursor: query.cursor.describe('The nextCursor of the previous page.') } : {}),
    ...(body ? { body } : {}),
    ...mcpOnlyFields(operation, maxUploadBytes),
  });
}

/** True when the operation answers a JSON array outside paging (wrapped as `{ items }`: structured output is an object). */
export function answersArray(operation: OperationDefinition): boolean {
  return operation.output instanceof z.ZodArray;
}

/**
 * The structured answer of a tool, always an object as MCP requires: the operation's output,
 * `{ items, nextCursor }` for a page, `{ items }` for another array, `{ events, ended }` for
 * the event stream. A download answers its file as text and has none.
 */
export function toolOutputSchema(operation: OperationDefinition): z.ZodType | undefined {
  if (operation.download) return undefined;
  if (operation.paged) {
    return z.object({
      items: z.array(operation.output),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
    });
  }
  if (operation.stream) {
    return z.object({
      events: z.array(operation.output),
      ended: z.boolean().describe('The crawl ended (the stream closed); false when the wait ran out first.'),
    });
  }
  if (answersArray(operation)) return z.object({ items: operation.output });
  return operation.output;
}

/**
 * An agent reads every tool's schema into its context, so what zod adds without saying more is
 * left out: the pattern beside a `format` (uuid, date-time) and the safe-integer bounds of every
 * integer. The OpenAPI document keeps them.
 */
function slim(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(slim);
  if (!value || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([keyword, inner]) => {
    if (keyword === 'pattern' && 'format' in value) return false;
    return !((keyword === 'minimum' || keyword === 'maximum') && Math.abs(inner as number) === Number.MAX_SAFE_INTEGER);
  });
  return Object.fromEntries(kept.map(([keyword, inner]) => [keyword, keyword === 'properties' ? slimProperties(inner) : slim(inner)]));
}

/** Property names are the caller's words, never keywords: only their schemas are slimmed. */
function slimProperties(properties: unknown): unknown {
  return Object.fromEntries(Object.entries(properties as Record<string, unknown>).map(([name, schema]) => [name, slim(schema)]));
}

export type JsonObjectSchema = { type: 'object'; [keyword: string]: unknown };

/** The named schema as the root, keeping it in `$defs` only when something still refers to it (itself, recursively). */
function unfold(name: string, defs: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const { [name]: root, ...others } = defs;
  const referred = JSON.stringify([root, others]).includes(`"#/$defs/${name}"`);
  const kept = referred ? defs : others;
  return { ...root, ...(Object.keys(kept).length > 0 ? { $defs: kept } : {}) };
}

/**
 * Named schemas that are nesting levels of another (NESTING_LEVEL_OF) folded into it: a `$ref`
 * to a level refers to the schema itself, recursively, and the levels go. A rule condition's
 * eight levels were eight copies of one schema, 17 KB of each rule pack tool's 19 in every
 * listing; its description says the depth, which the arguments' validation still counts.
 */
function foldedNestingLevels(json: Record<string, unknown>): Record<string, unknown> {
  const defs = (json.$defs ?? {}) as Record<string, Record<string, unknown>>;
  const levelOf = new Map<string, string>();
  for (const [name, definition] of Object.entries(defs)) {
    const of = definition[NESTING_LEVEL_OF];
    if (typeof of === 'string' && of in defs) levelOf.set(name, of);
  }
  if (levelOf.size === 0) return json;
  const folded = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(folded);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([keyword]) => keyword !== NESTING_LEVEL_OF)
        .map(([keyword, inner]) => [keyword, keyword === '$ref' && typeof inner === 'string' ? foldedRef(inner) : folded(inner)]),
    );
  };
  const foldedRef = (ref: string) => {
    const level = levelOf.get(ref.slice('#/$defs/'.length));
    return level ? `#/$defs/${level}` : ref;
  };
  const kept = Object.fromEntries(Object.entries(defs).filter(([name]) => !levelOf.has(name)));
  return folded({ ...json, $defs: kept }) as Record<string, unknown>;
}

/**
 * zod's JSON Schema for a tool listing. Named schemas stay in `$defs`, nesting levels folded;
 * a root that is only a `$ref` to one is unfolded, since MCP wants `type: "object"` at the root.
 */
export function toJsonObjectSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObjectSchema {
  const { $schema: _, ...json } = foldedNestingLevels(
    slim(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as Record<string, unknown>,
  );
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  const defs = json.$defs as Record<string, Record<string, unknown>> | undefined;
  const root = ref && defs?.[ref] ? unfold(ref, defs) : json;
  if (root.type !== 'object') throw new Error(`A tool schema must describe an object, not ${JSON.stringify(root.type)}.`);
  return root as JsonObjectSchema;
}
