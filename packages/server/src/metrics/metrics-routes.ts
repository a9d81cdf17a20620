import { LoupeError } from '@loupe/contract';
import type { FastifyInstance } from 'fastify';
import { bearerSecret, sameSecret } from '../identity/bearer-secret.ts';
import type { Metrics } from './metrics.ts';

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
      const given = bearerSecret(request.headers.authorization);
      if (given === undefined || !sameSecret(given, token)) {
        throw new LoupeError('unauthorized', {
          message: 'Send the metrics token (LOUPE_METRICS_TOKEN) as `Authorization: Bearer <token>`.',
        });
      }
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
