import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import multipart from '@fastify/multipart';
import { buildOpenApiDocument } from '@loupe/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerCdnRoutes } from './cdn/cdn-routes.ts';
import { composeServices } from './composition.ts';
import { registerDashboard } from './dashboard/dashboard-routes.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { refuseRequestsWhileClosing } from './http/closing-refusal.ts';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './http/error-handler.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerOperationRoutes } from './http/operation-routes.ts';
import { registerUploadTarget } from './images/upload-target-route.ts';
import type { Infrastructure } from './infrastructure.ts';
import { registerMcpRoutes } from './mcp/mcp-routes.ts';
import { Metrics } from './metrics/metrics.ts';
import { registerMetricsRoutes } from './metrics/metrics-routes.ts';
import { registerSharePageRoutes } from './reports/share-page-routes.ts';
import { registerSessionRoutes } from './sessions/session-routes.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** A request id from the caller is kept when it is a plain token; otherwise a new UUID. */
function requestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
}

export async function buildApp(infrastructure: Infrastructure): Promise<FastifyInstance> {
  const { config, database, log } = infrastructure;
  const app: FastifyInstance = Fastify({
    // pino's Logger is Fastify's logger; only the declared generics differ.
    loggerInstance: log as FastifyBaseLogger,
    genReqId: (request) => requestId(request.headers['x-request-id']),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Answered by refuseRequestsWhileClosing instead, in the error body every endpoint answers.
    return503OnClosing: false,
  });
  refuseRequestsWhileClosing(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Bodies are JSON (spec §4); anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app, { onStorageFull: () => infrastructure.disk.relieve() });
  await app.register(multipart, {
    limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10, parts: 11 },
    throwFileSizeLimit: true,
  });
  const metrics = new Metrics();
  registerMetricsRoutes(app, { metrics, token: config.metricsToken });
  registerHealthRoutes(app, database, infrastructure.disk);
  await registerApiDocs(app, buildOpenApiDocument({ version }));
  const services = await composeServices(infrastructure, metrics);
  app.addHook('onClose', services.close);
  registerOperationRoutes(app, {
    handlers: services.handlers,
    authenticator: services.authenticator,
    validateResponses: config.validateResponses,
    eventHeartbeatMs: config.eventHeartbeatMs,
    publicUrl: config.publicUrl,
  });
  await registerUploadTarget(app, services.uploadSlots, config.maxUploadBytes);
  registerSharePageRoutes(app, services.reports);
  registerCdnRoutes(app, { delivery: services.delivery, store: services.deliveryStore, publicHost: new URL(config.publicUrl).hostname });
  registerMcpRoutes(app, { authenticator: services.authenticator, maxUploadBytes: config.maxUploadBytes });
  registerSessionRoutes(app, {
    sessions: services.sessions,
    setup: services.setup,
    passwordResets: services.passwordResets,
    publicUrl: config.publicUrl,
  });
  await registerDashboard(app);
  return app;
}
