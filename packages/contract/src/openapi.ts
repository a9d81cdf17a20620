import { z } from 'zod';
import { type ErrorCode, errorCatalogue } from './common/errors.ts';
import { ErrorBodySchema } from './common/resource.ts';
import { cdnDeliveryPath, cdnDeliveryPathItem } from './images/cdn-delivery-document.ts';
import { isTextMediaType, type OperationDefinition, querySchema, responseSchema, successStatus } from './operation.ts';
import { declaredErrors } from './operation-errors.ts';
import { operations } from './registry.ts';

type JsonSchema = Record<string, unknown>;

/**
 * Builds the OpenAPI 3.1 document from the operation registry: paths, parameters, bodies,
 * answers and the error catalogue. zod's JSON Schema (draft 2020-12) is OpenAPI 3.1's own
 * dialect; named schemas (`.meta({ id })`) are hoisted into `components.schemas`.
 */
export function buildOpenApiDocument(info: { version: string; serverUrl?: string }): JsonSchema {
  const components: Record<string, JsonSchema> = {};

  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const { $schema: _, $defs, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      components[name] = rewriteRefs(definition) as JsonSchema;
    }
    return rewriteRefs(json) as JsonSchema;
  };

  const errorSchema = convert(ErrorBodySchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations as readonly OperationDefinition[]) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = pathItem(operation, convert, errorSchema);
  }
  paths[cdnDeliveryPath] = cdnDeliveryPathItem(
    (codes) => errorResponses(codes, errorSchema),
    (schema) => convert(schema, 'output'),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Loupe API',
      version: info.version,
      description:
        'Images delivered through named transform presets, and site crawls with audit reports. The image API lives under `/api/images`, the workspace API under `/api/v1` (send `x-service-team`). Errors always have the body `{ error, code, details? }`.',
    },
    servers: [{ url: info.serverUrl ?? '/' }],
    tags: [...new Set([...operations.map((o) => o.tag), 'Delivery'])].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `loupe_…`.' } },
    },
    security: [{ bearer: [] }],
    'x-error-codes': Object.fromEntries(Object.entries(errorCatalogue).map(([code, e]) => [code, e])),
  };
}

/** How an operation is called, as the document tells it: the auth errors, a note to its description, its security. */
function access(operation: OperationDefinition): { note: string; security?: unknown[] } {
  if (operation.public) return { note: 'No API key needed.', security: [] };
  if (operation.credentials === 'optional') {
    // OpenAPI says "optional" with an empty Security Requirement beside the key's.
    return {
      note: 'An API key is optional: one that is sent must be valid, and the call acts as its user.',
      security: [{ bearer: [] }, {}],
    };
  }
  return { note: `Required scopes: ${operation.scopes.join(', ') || 'none'}.` };
}

function pathItem(
  operation: OperationDefinition,
  convert: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema,
  errorSchema: JsonSchema,
): JsonSchema {
  const parameters: JsonSchema[] = [];
  const addParameters = (schema: z.ZodObject | undefined, location: 'path' | 'query') => {
    if (!schema) return;
    const json = convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      parameters.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  addParameters(operation.params, 'path');
  addParameters(querySchema(operation), 'query');
  if (operation.api === 'workspace' && operation.teamHeader !== false) {
    parameters.push({
      name: 'x-service-team',
      in: 'header',
      required: true,
      description: 'The workspace to act in (see `GET /api/v1/teams`).',
      schema: { type: 'string', format: 'uuid' },
    });
  }

  const { note, security } = access(operation);
  const responses: Record<string, unknown> = {
    [successStatus(operation)]: {
      description: operation.paged
        ? 'One page; the next is in the `Link` header.'
        : operation.stream
          ? 'Server-sent events; each `data:` line is one JSON event.'
          : 'Success.',
      content: successContent(operation, convert(responseSchema(operation), 'output')),
      ...(operation.paged
        ? {
            headers: {
              Link: {
                description: 'RFC 8288 `rel="next"` link to the next page, an absolute URL on the instance\'s public address.',
                schema: { type: 'string' },
              },
            },
          }
        : {}),
    },
  };
  Object.assign(responses, errorResponses(declaredErrors(operation), errorSchema));

  return {
    operationId: operation.id,
    summary: operation.summary,
    description: `${operation.description}\n\n${note}`,
    ...(security ? { security } : {}),
    tags: [operation.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body ? { requestBody: requestBody(operation, convert) } : {}),
    responses,
  };
}

/** The error answers of these codes, by status, each in the error body. */
function errorResponses(codes: readonly ErrorCode[], errorSchema: JsonSchema): Record<string, unknown> {
  const responses: Record<string, { description: string; content: unknown }> = {};
  for (const code of codes) {
    const status = String(errorCatalogue[code].status);
    const existing = responses[status];
    responses[status] = {
      description: existing ? `${existing.description} Or \`${code}\`.` : `\`${code}\`: ${errorCatalogue[code].message}`,
      content: { 'application/json': { schema: errorSchema } },
    };
  }
  return responses;
}

function successContent(operation: OperationDefinition, schema: JsonSchema): Record<string, unknown> {
  if (operation.stream) return { 'text/event-stream': { schema } };
  if (operation.download) {
    return Object.fromEntries(
      operation.download.contentTypes.map((type) => [
        type,
        type === 'application/json'
          ? { schema }
          : { schema: isTextMediaType(type) ? { type: 'string' } : { type: 'string', contentMediaType: type } },
      ]),
    );
  }
  return { 'application/json': { schema } };
}

function requestBody(operation: OperationDefinition, convert: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema): JsonSchema {
  const content: Record<string, unknown> = { 'application/json': { schema: convert(operation.body as z.ZodType, 'input') } };
  if (operation.upload) {
    const fields = convert(operation.upload.fields, 'input') as { properties?: JsonSchema };
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' }, ...fields.properties },
      },
    };
  }
  return { required: true, content };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(inner),
      ]),
    );
  }
  return value;
}
