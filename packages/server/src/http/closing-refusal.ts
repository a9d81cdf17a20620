import { LoupeError } from '@loupe/contract';
import type { FastifyInstance } from 'fastify';

/**
 * A request that reaches a server already shutting down (one sent on a connection busy with
 * an earlier request) is answered 503 `not_ready` in the error body of DESIGN.md §4, with
 * Retry-After, rather than Fastify's own 503 body; its connection is closed after the answer.
 * Register with the app built with `return503OnClosing: false`.
 */
export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new LoupeError('not_ready', { message: 'This server is shutting down; retry shortly.' });
  });
}
