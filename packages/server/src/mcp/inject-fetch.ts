import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Statuses whose answer has no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A web body over an injected answer's stream. Canceling it (the SDK stops reading an event
 * stream) aborts the injected request, which closes the route's side as a client leaving does.
 */
function webBody(stream: Readable, abort: AbortController): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value as Buffer));
    },
    cancel() {
      abort.abort();
    },
  });
}

/**
 * A `fetch` answered by the app itself through `inject`: the SDK client of the /mcp endpoint
 * calls the API's own routes with no network hop, so every rule of authentication, scope,
 * workspace and validation applies unchanged. Answers stream (server-sent events, exports).
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const abort = new AbortController();
    const signal = AbortSignal.any([request.signal, abort.signal]);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      payload,
      payloadAsStream: true,
      signal,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, String(one));
    }
    const body = NO_BODY.has(answer.statusCode) ? null : webBody(answer.stream(), abort);
    return new Response(body, { status: answer.statusCode, headers });
  };
}
