import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * `/api/openapi.json` and a browsable reference at `/api/docs` (Swagger UI, served from its
 * npm package: no CDN, so it works offline).
 */
export async function registerApiDocs(app: FastifyInstance, document: Record<string, unknown>): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: true } });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => document);
}
