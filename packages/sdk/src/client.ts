import {
  LoupeError,
  operations,
  errorCodes,
  type ErrorCode,
  type OperationById,
  type OperationDefinition,
  type OperationId,
  type OperationRequest,
} from '@loupe/contract';
import type { z } from 'zod';

export interface ClientOptions {
  /** The service's origin, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** An API key (`loupe_…`). */
  apiKey: string;
  /** The workspace for workspace API (`/api/v1`) calls: sent as `x-service-team`. */
  workspaceId?: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
}

/** A file answer (an export) arrives as its text, or parsed when it is JSON. */
type Answer<O extends OperationDefinition> = O['paged'] extends true
  ? z.output<O['output']>[]
  : O['download'] extends object
    ? unknown
    : z.output<O['output']>;

/** One method per registry operation, named after its id. */
export type LoupeClient = {
  [I in OperationId]: (request: OperationRequest<OperationById<I>>) => Promise<Answer<OperationById<I>>>;
};

function shapeKeys(schema: z.ZodObject | undefined): string[] {
  return schema ? Object.keys(schema.shape) : [];
}

/**
 * A typed client for every operation of both APIs, derived from the contract's registry.
 * Failures throw `LoupeError` with the API's status, code and details.
 *
 * @example
 * const loupe = createClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.LOUPE_KEY! });
 * const project = await loupe.createImageProject({ body: { name: 'Blog' } });
 */
export function createClient(options: ClientOptions): LoupeClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const client: Record<string, (request: Record<string, unknown>) => Promise<unknown>> = {};

  for (const operation of operations as readonly OperationDefinition[]) {
    const queryKeys = [...shapeKeys(operation.query), ...(operation.paged ? ['limit', 'cursor'] : [])];

    client[operation.id] = async (request = {}) => {
      const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(String(request[name] ?? '')),
      );
      const url = new URL(baseUrl + path);
      for (const key of queryKeys) {
        if (request[key] !== undefined) url.searchParams.set(key, String(request[key]));
      }
      const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}` };
      if (operation.api === 'workspace' && operation.teamHeader !== false && options.workspaceId) {
        headers['x-service-team'] = options.workspaceId;
      }
      let body: string | undefined;
      if (operation.body) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(request.body);
      }
      const response = await doFetch(url, { method: operation.method, headers, body });
      const text = await response.text();
      const isJson = /^application\/json\b/.test(response.headers.get('content-type') ?? 'application/json');
      if (response.ok && operation.download && !isJson) return text;
      const json: unknown = text ? JSON.parse(text) : undefined;
      if (!response.ok) throw errorFrom(response.status, json);
      return json;
    };
  }
  return client as unknown as LoupeClient;
}

/** The API's error body as a LoupeError; an unexpected body still keeps its status. */
function errorFrom(status: number, body: unknown): LoupeError {
  const { error, code, details, ...extra } = (body ?? {}) as Record<string, unknown>;
  const known = errorCodes.includes(code as ErrorCode) ? (code as ErrorCode) : undefined;
  const fallback: ErrorCode = status >= 500 ? 'internal_error' : 'validation_failed';
  return new LoupeError(known ?? fallback, {
    message: typeof error === 'string' ? error : `HTTP ${status}`,
    details: details as LoupeError['details'],
    extra,
  });
}
