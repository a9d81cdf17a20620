import type { OperationById, OperationDefinition, OperationId, OperationRequest } from '@loupe/contract';
import type { z } from 'zod';

/** Per-call options, the optional second argument of every method. */
export interface CallOptions {
  /** Aborts the request, a retry's wait, or an event stream. */
  signal?: AbortSignal;
}

/** The file of an upload operation (`uploadImage`), sent as `multipart/form-data`. */
export interface FileUpload<Fields> {
  /** The bytes: a `Blob`/`File` in a browser, a `Buffer` or `Uint8Array` in Node. */
  file: Blob | Uint8Array;
  filename: string;
  /** Defaults to the Blob's own type, else `application/octet-stream`; the server trusts only what it decodes. */
  contentType?: string;
  /** The operation's other form fields. */
  fields?: Fields;
}

/**
 * A stream answer (`streamCrawlEvents`): iterate it with `for await`; or await it first, which
 * settles once the server has accepted the request (so a 404 throws before any event).
 */
export type EventStream<T> = Promise<AsyncIterable<T>> & AsyncIterable<T>;

type Item<O extends OperationDefinition> = z.output<O['output']>;

/** An operation that takes no input at all takes `{}`, or nothing. */
type Exactly<R> = unknown extends R ? Record<string, never> : R;

/**
 * What a method takes: path parameters and query fields flattened, the JSON body under
 * `body`; an upload operation takes `upload` instead of `body`.
 */
export type ClientRequest<O extends OperationDefinition> = O['upload'] extends { fields: infer F extends z.ZodType }
  ? Omit<OperationRequest<O>, 'body'> &
      (
        | { body: O['body'] extends z.ZodType ? z.input<O['body']> : never; upload?: undefined }
        | { upload: FileUpload<z.input<F>>; body?: undefined }
      )
  : Exactly<OperationRequest<O>>;

/**
 * What a method resolves to: the answer; a paged operation's first page of items (all pages:
 * `client.all`); a download's text, parsed when it is JSON, or its bytes (a Uint8Array) when it is an image.
 */
export type ClientAnswer<O extends OperationDefinition> = O['paged'] extends true
  ? Item<O>[]
  : O['download'] extends object
    ? unknown
    : Item<O>;

/** The request is optional when none of its fields is required (`{}` fits it). */
type Arguments<O extends OperationDefinition> =
  // biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether every field of T is optional.
  {} extends ClientRequest<O> ? [request?: ClientRequest<O>, options?: CallOptions] : [request: ClientRequest<O>, options?: CallOptions];

export type ClientMethod<O extends OperationDefinition> = (
  ...args: Arguments<O>
) => O['stream'] extends true ? EventStream<Item<O>> : Promise<ClientAnswer<O>>;

export type PagedOperationId = {
  [I in OperationId]: OperationById<I> extends { paged: true } ? I : never;
}[OperationId];

/** Every item of every page, following the `Link: <…>; rel="next"` header. */
export type AllPagesMethod<O extends OperationDefinition> = (...args: Arguments<O>) => AsyncIterable<Item<O>>;

/** One page of items, and the `cursor` that asks for the next (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** One page with the cursor of the next, for paging controls (a list screen, an agent's tool). */
export type PageMethod<O extends OperationDefinition> = (...args: Arguments<O>) => Promise<Page<Item<O>>>;

/**
 * One method per registry operation, named after its id; for each paged one, `all.<id>`
 * (every item of every page) and `page.<id>` (one page and the next cursor).
 */
export type LoupeClient = { [I in OperationId]: ClientMethod<OperationById<I>> } & {
  readonly all: { [I in PagedOperationId]: AllPagesMethod<OperationById<I>> };
  readonly page: { [I in PagedOperationId]: PageMethod<OperationById<I>> };
};

/** A method's request by operation id, e.g. `RequestOf<'createPreset'>`. */
export type RequestOf<I extends OperationId> = ClientRequest<OperationById<I>>;

/** What a method resolves to by operation id, e.g. `AnswerOf<'getImage'>` (an event of a stream operation). */
export type AnswerOf<I extends OperationId> =
  OperationById<I> extends { stream: true } ? Item<OperationById<I>> : ClientAnswer<OperationById<I>>;
