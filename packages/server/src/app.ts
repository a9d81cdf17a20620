import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from '@loupe/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './database/database.ts';
import { composeHandlers } from './handlers.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerOperationRoutes } from './http/operation-routes.ts';
import type { Plans } from './plans/plans.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** A request id from the caller is kept when it is a plain token; otherwise a new UUID. */
function requestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
}

export async function buildApp(config: Config, database: Database, plans: Plans, log: Logger): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    // pino's Logger is Fastify's logger; only the declared generics differ.
    loggerInstance: log as FastifyBaseLogger,
    genReqId: (request) => requestId(request.headers['x-request-id']),
    bodyLimit: 1024 * 1024,
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Bodies are JSON (spec §4); anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  registerHealthRoutes(app, database);
  await registerApiDocs(app, buildOpenApiDocument({ version }));
  const { handlers, authenticator } = composeHandlers(database, plans, log);
  registerOperationRoutes(app, { handlers, authenticator, validateResponses: config.validateResponses });
  return app;
}
