import { Readable } from 'node:stream';
import {
  CSRF_HEADER,
  type Download,
  isTextMediaType,
  LoupeError,
  type OperationDefinition,
  operations,
  type Page,
  parseOrThrow,
  querySchema,
  responseSchema,
  successStatus,
  validationDetails,
} from '@loupe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Caller, Principal } from '../principal.ts';
import { ANONYMOUS_BODY_LIMIT } from './anonymous-body-limit.ts';
import { checkBeforeBody } from './check-before-body.ts';
import { type CallerIdentifier, type Credentials, carriesCredentials } from './credentials.ts';
import type { Handlers } from './handlers.ts';
import { readMultipartUpload } from './multipart-upload.ts';
import { PreparedPage } from './prepared-page.ts';
import { readSessionCookie } from './session-cookie.ts';

const NoQuery = z.strictObject({});

/** `/a/{id}/b` → `/a/:id/b` */
function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The next page as an RFC 8288 link, absolute on the public URL as every URL Loupe answers
 * (the SDK follows only its query, so a proxy mounting the API elsewhere still works).
 */
function nextLink(publicUrl: string, request: FastifyRequest, cursor: string): string {
  const url = new URL(request.url, 'http://loupe.invalid');
  url.searchParams.set('cursor', cursor);
  return `<${publicUrl}${url.pathname}${url.search}>; rel="next"`;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function credentialsOf(request: FastifyRequest): Credentials {
  return {
    authorization: request.headers.authorization,
    // A workspace id, and UUIDs compare case-insensitively: read it in the lower case stored.
    team: header(request, 'x-service-team')?.toLowerCase(),
    session: readSessionCookie(request.headers.cookie),
    csrfToken: header(request, CSRF_HEADER),
  };
}

/** Who calls an operation, by its registry entry: nobody (public), maybe an account, or a member of a workspace. */
function callerOf(
  authenticator: CallerIdentifier,
  operation: OperationDefinition,
  request: FastifyRequest,
): Promise<Principal | Caller | null> {
  if (operation.public) return Promise.resolve(null);
  const credentials = credentialsOf(request);
  if (operation.credentials === 'optional') {
    return carriesCredentials(credentials) ? authenticator.identify(credentials, operation) : Promise.resolve(null);
  }
  return authenticator.authenticate(credentials, operation);
}

/**
 * Registers one route per registry operation: authenticate from the headers before the body
 * is read, validate params, query and body with the operation's schemas, call its handler
 * with the caller found, answer with its success status.
 */
export function registerOperationRoutes(
  app: FastifyInstance,
  dependencies: {
    handlers: Handlers;
    authenticator: CallerIdentifier;
    validateResponses: boolean;
    eventHeartbeatMs?: number;
    /** LOUPE_PUBLIC_URL: the start of the Link headers' next pages. */
    publicUrl: string;
  },
): void {
  const { authenticator, validateResponses, publicUrl } = dependencies;
  const handlers = dependencies.handlers as Record<string, (input: unknown, context: unknown) => Promise<unknown>>;
  const missing = operations.filter((operation) => typeof handlers[operation.id] !== 'function');
  if (missing.length > 0) throw new Error(`Operations without a handler: ${missing.map((o) => o.id).join(', ')}`);

  // The caller each request's onRequest hook found, for its handler.
  const callers = new WeakMap<FastifyRequest, Principal | Caller | null>();
  // Event streams never end by themselves: a shutdown ends them at once (clients reconnect, to
  // another server or this one restarted), or closing the server would wait on them for ever.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  for (const operation of operations as readonly OperationDefinition[]) {
    const handler = handlers[operation.id] as (input: unknown, context: unknown) => Promise<unknown>;
    const query = querySchema(operation) ?? NoQuery;
    const response = responseSchema(operation);

    app.route({
      method: operation.method,
      url: fastifyPath(operation.path),
      ...(operation.public || operation.credentials === 'optional' ? { bodyLimit: ANONYMOUS_BODY_LIMIT } : {}),
      onRequest: checkBeforeBody(async (request) => {
        callers.set(request, await callerOf(authenticator, operation, request));
      }),
      handler: async (request, reply) => {
        const principal = callers.get(request) ?? null;
        const params = operation.params ? parseOrThrow(operation.params, request.params) : {};
        const parsedQuery = parseOrThrow(query, request.query);
        const multipart = request.isMultipart();
        if (multipart && !operation.upload) throw new LoupeError('unsupported_media_type', { message: 'Send JSON.' });
        const upload = multipart && operation.upload ? await readMultipartUpload(request, operation.upload.fields) : undefined;
        const body = operation.body && !upload ? parseOrThrow(operation.body, request.body ?? undefined) : undefined;
        const input = { params, query: parsedQuery, body, upload };
        // Aborted when the client goes away: a stream's source stops polling then, not when its state next changes.
        // Not once the answer is sent: an abort builds a DOMException with its stack, a
        // twentieth of a plain GET's time, for a signal nobody reads any more.
        const disconnected = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) disconnected.abort();
        });
        const signal = operation.stream ? AbortSignal.any([disconnected.signal, closing.signal]) : disconnected.signal;
        const result = await handler(input, { principal, requestId: request.id, signal });
        if (operation.stream)
          return sendEvents(request, reply, result as AsyncIterable<unknown>, dependencies.eventHeartbeatMs ?? EVENT_HEARTBEAT_MS);
        if (operation.download) return sendDownload(reply, result as Download);

        let answer = result;
        if (operation.paged) {
          const page = result as Page<unknown> | PreparedPage<unknown>;
          if (page.nextCursor) reply.header('link', nextLink(publicUrl, request, page.nextCursor));
          answer = page instanceof PreparedPage ? page : page.items;
        }
        if (validateResponses) {
          const checked = response.safeParse(answer instanceof PreparedPage ? answer.parsedItems() : answer);
          if (!checked.success) {
            request.log.error({ details: validationDetails(checked.error) }, `${operation.id} answered outside its schema`);
            throw new Error(`${operation.id} answered outside its schema`);
          }
        }
        reply.code(successStatus(operation));
        if (answer instanceof PreparedPage) return reply.type('application/json; charset=utf-8').send(answer.itemsJson);
        return reply.send(answer);
      },
    });
  }
}

/** A file answer, streamed as the handler produces it. */
function sendDownload(reply: FastifyReply, download: Download) {
  return reply
    .code(200)
    .header('content-type', isTextMediaType(download.contentType) ? `${download.contentType}; charset=utf-8` : download.contentType)
    .header('content-disposition', `${download.disposition ?? 'attachment'}; filename="${download.filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(download.body));
}

/**
 * How often an event stream with nothing to say sends a comment line: a crawl may build its
 * report or check slow links for minutes, and proxies and clients drop a silent connection
 * (undici's body timeout is 300 s, nginx's proxy_read_timeout 60 s).
 */
const EVENT_HEARTBEAT_MS = 15_000;

/**
 * Writes server-sent events, one JSON `data:` line per event, until the source ends or the
 * client goes away (which ends the source through its `return`); a `:` comment line, which
 * clients ignore, every `heartbeatMs` keeps the connection alive meanwhile.
 */
async function sendEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  events: AsyncIterable<unknown>,
  heartbeatMs: number,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  let closed = false;
  request.raw.on('close', () => {
    closed = true;
    void iterator.return?.();
  });
  const heartbeat = setInterval(() => raw.write(':\n\n'), heartbeatMs);
  try {
    for (let step = first; !step.done && !closed; step = await iterator.next()) raw.write(`data: ${JSON.stringify(step.value)}\n\n`);
  } catch (error) {
    request.log.error({ err: error }, 'event stream failed');
  } finally {
    clearInterval(heartbeat);
    raw.end();
  }
}
