import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RawAnswer } from './raw-request.ts';

type JsonSchema = Record<string, unknown>;

/** The part of the OpenAPI document the conformance check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

const DOCUMENT_ID = 'loupe-openapi.json';

/**
 * Checks answers against what the document declares for them: a status among the operation's
 * responses, and a JSON body valid against that response's schema (JSON Schema 2020-12, as
 * OpenAPI 3.1 uses it).
 */
export class OpenApiConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  readonly document: OpenApiDocument;

  constructor(document: OpenApiDocument) {
    this.document = document;
    addFormats.default(this.ajv);
    // Refs point at `#/components/schemas/…` of the document; register it once to resolve them.
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  }

  operation(method: string, path: string): OpenApiOperation {
    const found = this.document.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`${method} ${path} is not in the document`);
    return found;
  }

  /** What is wrong with `answer` as an answer of the operation at `method path`, or undefined. */
  problemWith(method: string, path: string, answer: RawAnswer): string | undefined {
    const item = this.operation(method, path);
    const declared = item.responses[String(answer.status)] ?? item.responses.default;
    if (!declared)
      return `answered ${answer.status}, which the document does not declare (declared: ${Object.keys(item.responses).join(', ')})`;
    const mediaType = answer.contentType.split(';')[0]!.trim();
    if (!declared.content || answer.status === 204 || answer.status === 304) return undefined;
    // `image/*` in the document covers every image type.
    const media = declared.content[mediaType] ?? declared.content[`${mediaType.split('/')[0]}/*`];
    if (!media)
      return `answered ${answer.status} as ${mediaType || 'no content type'}, declared ${Object.keys(declared.content).join(', ')}`;
    if (mediaType !== 'application/json' || !media.schema) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `answered ${answer.status} with JSON that does not parse`;
    }
    const validate = this.validator(`${item.operationId} ${answer.status} ${mediaType}`, media.schema);
    if (validate(body)) return undefined;
    const first = validate.errors?.[0];
    return `answered ${answer.status} with a body the schema refuses: ${first?.instancePath || '/'} ${first?.message} (${JSON.stringify(first?.params)})`;
  }

  private validator(key: string, schema: JsonSchema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as JsonSchema;
      validate = this.ajv.compile(rooted);
      this.validators.set(key, validate);
    }
    return validate;
  }
}
