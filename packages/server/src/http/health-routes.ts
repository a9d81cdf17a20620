import type { FastifyInstance } from 'fastify';
import type { Database } from '../database/database.ts';

/** `/healthz`: the process answers. `/readyz`: it can also reach its database. */
export function registerHealthRoutes(app: FastifyInstance, database: Database): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.kind };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ error: 'The database is not reachable.', code: 'not_ready' });
    }
  });
}
