import { timingSafeEqual } from 'node:crypto';
import { LoupeError } from '@loupe/contract';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

/** The same bytes, compared in constant time. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Times every request, and serves `/metrics` in Prometheus' text format: to anyone, as
 * `/healthz` is, unless LOUPE_METRICS_TOKEN is set, when a scraper must send it as a bearer token.
 */
export function registerMetricsRoutes(app: FastifyInstance, options: { metrics: Metrics; token: string | undefined }): void {
  const { metrics, token } = options;
  app.addHook('onResponse', async (request, reply) => {
    metrics.requestAnswered(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', async (request, reply) => {
    if (token !== undefined) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !sameToken(given, token)) {
        throw new LoupeError('unauthorized', { message: 'Send the metrics token (LOUPE_METRICS_TOKEN) as `Authorization: Bearer <token>`.' });
      }
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
