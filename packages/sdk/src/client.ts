import { isTextMediaType, LoupeError, type OperationDefinition, operations } from '@loupe/contract';
import type { CallOptions, LoupeClient } from './client-types.ts';
import { nextLink } from './link-header.ts';
import { readServerSentEvents } from './server-sent-events.ts';
import { createTransport, type RetryNotice, type Transport } from './transport.ts';

export interface ClientOptions {
  /** The service's origin, e.g. `http://localhost:8080`; in a browser page, the page's origin by default. */
  baseUrl?: string;
  /** An API key (`loupe_…`). A page of the dashboard signed in with a session cookie needs none. */
  apiKey?: string;
  /** The workspace for workspace API (`/api/v1`) calls: sent as `x-service-team`. */
  workspaceId?: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
  /** Sent with every request, e.g. the dashboard's CSRF token. */
  headers?: Record<string, string>;
  /** Retries of a request answered 429 or 503 (honouring `Retry-After`); 0 turns retrying off. Default 3. */
  retries?: number;
  /** Told before each retry. */
  onRetry?: (retry: RetryNotice) => void;
}

type Request = Record<string, unknown>;

/**
 * A typed client for every operation of both APIs, derived from the contract's registry.
 * Failures throw `LoupeError` with the answer's status, code, details and extra fields.
 *
 * @example
 * const loupe = createClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.LOUPE_API_KEY! });
 * const project = await loupe.createImageProject({ body: { name: 'Blog' } });
 */
export function createClient(options: ClientOptions = {}): LoupeClient {
  const baseUrl = options.baseUrl ?? (globalThis as { location?: { origin?: string } }).location?.origin;
  if (!baseUrl) throw new TypeError('createClient needs a baseUrl outside a browser page.');
  const retries = options.retries ?? 3;
  if (!Number.isSafeInteger(retries) || retries < 0) throw new TypeError('retries must be a whole number, 0 or more.');
  const transport = createTransport({
    baseUrl,
    apiKey: options.apiKey,
    workspaceId: options.workspaceId,
    // Bound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    headers: options.headers ?? {},
    retries,
    onRetry: options.onRetry,
  });

  const client: Record<string, unknown> = {};
  const all: Record<string, unknown> = {};
  const page: Record<string, unknown> = {};
  for (const operation of operations as readonly OperationDefinition[]) {
    client[operation.id] = operation.stream
      ? (request: Request = {}, call?: CallOptions) => eventStream(transport.send(operation, request, call))
      : async (request: Request = {}, call?: CallOptions) => readAnswer(operation, await transport.send(operation, request, call));
    if (operation.paged) {
      all[operation.id] = (request: Request = {}, call?: CallOptions) => allPages(transport, operation, request, call);
      page[operation.id] = (request: Request = {}, call?: CallOptions) => onePage(transport, operation, request, call);
    }
  }
  client.all = all;
  client.page = page;
  return client as LoupeClient;
}

/** JSON parsed; a download's file as text unless it is JSON, or as bytes when it is not text (an image). */
async function readAnswer(operation: OperationDefinition, response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (operation.download && type !== '' && !isTextMediaType(type)) return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(type);
  if (!isJson && operation.download) return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const error = new LoupeError('internal_error', {
      message: `${operation.id} answered ${response.status} with ${type || 'no content type'} instead of JSON.`,
      extra: { body: text.slice(0, 500) },
    });
    throw Object.assign(error, { status: response.status });
  }
}

async function* allPages(
  transport: Transport,
  operation: OperationDefinition,
  request: Request,
  call?: CallOptions,
): AsyncGenerator<unknown> {
  let search: string | undefined;
  do {
    const response = await transport.send(operation, request, call, search);
    const link = nextLink(response.headers.get('link'));
    yield* (await readAnswer(operation, response)) as unknown[];
    // The link's query (its cursor) on our own path, so it holds behind a proxy that mounts the API under a prefix.
    search = link === undefined ? undefined : new URL(link, 'http://link.invalid/').search;
  } while (search !== undefined);
}

/** One page and the cursor of the next, read from the `Link` header (null on the last page). */
async function onePage(transport: Transport, operation: OperationDefinition, request: Request, call?: CallOptions) {
  const response = await transport.send(operation, request, call);
  const link = nextLink(response.headers.get('link'));
  const items = (await readAnswer(operation, response)) as unknown[];
  return { items, nextCursor: link === undefined ? null : new URL(link, 'http://link.invalid/').searchParams.get('cursor') };
}

/** Parses each event's JSON; awaited, settles once the stream is open (a refused request throws there). */
function eventStream(opening: Promise<Response>) {
  const events = opening.then(async function* (response) {
    if (!response.body) return;
    for await (const data of readServerSentEvents(response.body)) yield JSON.parse(data) as unknown;
  });
  // Iterated without being awaited, the failure reaches the caller through the iterator instead.
  events.catch(() => undefined);
  return Object.assign(events, {
    async *[Symbol.asyncIterator]() {
      yield* await events;
    },
  });
}
