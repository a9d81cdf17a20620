import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorCatalogue, LoupeError } from '@loupe/contract';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStorageFull } from '../disk/storage-full.ts';

/** Fastify's own failures (body parsing, limits) in the catalogue's words. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_PARTS_LIMIT: 'payload_too_large',
  FST_FILES_LIMIT: 'payload_too_large',
  FST_FIELDS_LIMIT: 'payload_too_large',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
  FST_PROTO_VIOLATION: 'validation_failed',
  FST_ERR_BAD_URL: 'validation_failed',
  FST_ERR_MAX_PARAM_LENGTH: 'validation_failed',
  // @fastify/static, serving the dashboard and Swagger UI: a path that climbs out of its folder.
  FST_STATIC_FORBIDDEN_PATH: 'not_found',
};

/** Messages for Fastify's failures whose own would not tell a caller what to change. */
const fastifyMessages: Record<string, string> = {
  FST_PROTO_VIOLATION: 'A field may not be named __proto__ or constructor.',
  FST_ERR_BAD_URL: 'The URL has a malformed percent escape.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is longer than any id.',
  FST_STATIC_FORBIDDEN_PATH: 'No such file.',
};

/**
 * The refusals of the file server under @fastify/static (`send`), which carry a status and no
 * code. 412 and 416 keep their statuses (RFC 9110 §13.1.1, §15.5.17): clients that resume a
 * download or check an ETag read them.
 */
const fileServerRefusals: Record<number, { code: ErrorCode; message?: string }> = {
  400: { code: 'validation_failed' },
  403: { code: 'not_found', message: 'No such file.' },
  412: { code: 'precondition_failed' },
  416: { code: 'range_not_satisfiable' },
};

function toLoupeError(error: FastifyError): LoupeError | undefined {
  if (error instanceof LoupeError) return error;
  if (isStorageFull(error)) return new LoupeError('insufficient_storage');
  const code = fastifyCodes[error.code] ?? (error instanceof SyntaxError && error.statusCode === 400 ? 'invalid_json' : undefined);
  if (code)
    return new LoupeError(code, {
      message: code === 'invalid_json' ? `The request body is not valid JSON: ${error.message}` : fastifyMessages[error.code],
    });
  const refusal = error.code === undefined ? fileServerRefusals[error.statusCode ?? 0] : undefined;
  if (refusal) return new LoupeError(refusal.code, { message: refusal.message });
  return undefined;
}

/**
 * Fastify's failures before a route is found (a malformed percent escape, a path parameter
 * past the router's length), which never reach the error handler: the same body all the same.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = toLoupeError(error) ?? new LoupeError('validation_failed');
  void reply.code(known.status).header('cache-control', 'no-store').send(known.toBody());
}

/**
 * Requests Node's HTTP parser refuses (a request line and headers past 16 KB, a NUL or a space
 * in the path, an unknown method, a malformed Content-Length) reach neither a route nor the
 * error handler: the body of DESIGN.md §4 is written on the socket here, which then closes.
 * A request that stalled past the server's timeout gets a bare 408, as Node would send it.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable)
    socket.write(
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'
        : refusal(error),
    );
  // As Node does: what is left of a request the parser gave up on is not read.
  socket.destroy(error);
}

function refusal(error: ConnectionError): string {
  const refused =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new LoupeError('headers_too_large')
      : new LoupeError('validation_failed', { message: 'The request is not valid HTTP/1.1.' });
  const body = JSON.stringify(refused.toBody());
  return `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Every failure leaves as the JSON error body of DESIGN.md §4. Unexpected errors are
 * logged with the request id and answered 500 with that id, never a stack trace.
 */
export function registerErrorHandling(app: FastifyInstance, options: { onStorageFull?: () => Promise<void> } = {}): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const known = toLoupeError(error);
    if (known?.code === 'insufficient_storage' && !(error instanceof LoupeError)) {
      // A write found the disk full: make room (DiskGuard.relieve) before answering, so a retry can succeed.
      request.log.warn({ err: error }, 'a write found the disk full');
      await options.onStorageFull?.().catch((failure: unknown) => request.log.error({ err: failure }, 'could not relieve the full disk'));
    }
    // An error must not be kept by a browser or CDN in front of us, least of all on /cdn paths.
    reply.header('cache-control', 'no-store');
    if (known) {
      if (known.status === 401) reply.header('www-authenticate', 'Bearer realm="loupe"');
      if (known.status === 429 || known.status === 503) reply.header('retry-after', String(known.extra.retryAfter ?? 1));
      return reply.code(known.status).send(known.toBody());
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({
      error: errorCatalogue.internal_error.message,
      code: 'internal_error' satisfies ErrorCode,
      requestId: request.id,
    });
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new LoupeError('not_found', { message: `No route ${request.method} ${request.url.split('?')[0]}.` });
    return reply.code(404).send(error.toBody());
  });
}
