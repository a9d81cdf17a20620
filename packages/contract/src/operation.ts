import { z } from 'zod';
import type { ErrorCode } from './common/errors.ts';
import { type Page, PageQuery } from './common/paging.ts';
import type { Scope } from './identity/roles.ts';

/**
 * One operation of the service, defined once. The server derives its route and validation
 * from it, the OpenAPI document its path item, the MCP server its tool, the SDK its method.
 */
export interface OperationDefinition {
  /** Stable camelCase name: the SDK method, the MCP tool (snake_cased), the OpenAPI operationId. */
  id: string;
  /** `image`: the key's own workspace; `workspace`: the one named by `x-service-team`. */
  api: 'image' | 'workspace';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Full path with `{name}` parameters, e.g. `/api/images/projects/{projectId}`. */
  path: string;
  summary: string;
  /** Written for people and agents alike: what it does, what it costs, what to call next. */
  description: string;
  tag: string;
  /** Every one of these is required of the calling key. */
  scopes: readonly Scope[];
  /** Workspace API operations need `x-service-team` unless this is false. */
  teamHeader?: boolean;
  /** No API key at all: whoever holds the URL may call it (a share link's token). */
  public?: boolean;
  /**
   * `optional`: a key or a dashboard session may come with the call, and must then be valid
   * (401 otherwise); the operation acts for that account, in no workspace (accepting an
   * invite as an existing account). Without one it runs too, for no account.
   */
  credentials?: 'optional';
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The answer; for a paged operation, the schema of one item of the array. */
  output: z.ZodType;
  /** Success status; 200 when unset. */
  status?: 200 | 201 | 202;
  /** A list with `limit`/`cursor` and a `Link: <…>; rel="next"` header. */
  paged?: boolean;
  /** Answers server-sent events, each `data:` line one `output`, until the stream ends. */
  stream?: boolean;
  /**
   * Answers a file in one of these media types (the handler picks, e.g. by a `format`
   * parameter) instead of JSON; `output` then describes the JSON form.
   */
  download?: { contentTypes: readonly string[] };
  /**
   * The operation also takes `multipart/form-data`: one file in the part named `file`, and
   * the other parts validated by `fields`. The handler then gets `upload` instead of `body`.
   */
  upload?: { fields: z.ZodObject };
  /**
   * Spends credits: reserves one per page it may crawl (maxPages, clamped to the plan's cap)
   * and charges the pages crawled. Its MCP tool takes a `maxCredits` guard.
   */
  spendsCredits?: boolean;
  /** Errors particular to this operation, beyond those every operation can answer. */
  errors?: readonly ErrorCode[];
}

export function defineOperation<const O extends OperationDefinition>(operation: O): O {
  return operation;
}

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** A file received in a multipart upload, read into memory within the upload size limit. */
export interface UploadedFile {
  filename: string;
  /** As the client declared it; the server trusts only what it decodes. */
  contentType: string;
  data: Uint8Array;
}

type Upload<O extends OperationDefinition> = O['upload'] extends { fields: infer F extends z.ZodType }
  ? { file: UploadedFile; fields: z.output<F> }
  : never;

export interface OperationInput<O extends OperationDefinition> {
  params: Out<O['params']>;
  query: O['paged'] extends true ? Out<O['query']> & PageQuery : Out<O['query']>;
  /** For an operation with `upload`, exactly one of `body` and `upload` is set. */
  body: O['body'] extends z.ZodType ? z.output<O['body']> | (O['upload'] extends object ? undefined : never) : undefined;
  upload: Upload<O> | undefined;
}

/** A file answer, streamed in pieces so a large export is never held whole. */
export interface Download {
  contentType: string;
  /** Offered to the browser in Content-Disposition. */
  filename: string;
  /** Text, or the bytes of an image. */
  body: AsyncIterable<string | Uint8Array>;
  /** `inline` for what a browser shows in place (an image); an attachment otherwise. */
  disposition?: 'inline' | 'attachment';
}

/** Text answers carry a charset; images and other bytes do not. */
export function isTextMediaType(type: string): boolean {
  return /^text\/|^application\/([\w.+-]+\+)?json\b/i.test(type);
}

/** What a handler returns: the resource, or for a paged operation one page of items. */
export type OperationResult<O extends OperationDefinition> = O['paged'] extends true
  ? Page<z.output<O['output']>>
  : O['stream'] extends true
    ? AsyncIterable<z.output<O['output']>>
    : O['download'] extends object
      ? Download
      : z.output<O['output']>;

/** The input a client sends (before defaults and coercion). */
export type OperationRequest<O extends OperationDefinition> = (O['params'] extends z.ZodType ? z.input<O['params']> : unknown) &
  (O['paged'] extends true ? Partial<z.input<typeof PageQuery>> : unknown) &
  (O['query'] extends z.ZodType ? z.input<O['query']> : unknown) &
  (O['body'] extends z.ZodType ? { body: z.input<O['body']> } : unknown);

/** The query schema with the paging parameters of a paged operation merged in. */
export function querySchema(operation: OperationDefinition): z.ZodObject | undefined {
  if (!operation.paged) return operation.query;
  return operation.query ? PageQuery.extend(operation.query.shape) : PageQuery;
}

/** The schema of the whole success answer. */
export function responseSchema(operation: OperationDefinition): z.ZodType {
  return operation.paged ? z.array(operation.output) : operation.output;
}

export function successStatus(operation: OperationDefinition): number {
  return operation.status ?? 200;
}
