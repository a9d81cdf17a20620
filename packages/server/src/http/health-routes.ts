import type { FastifyInstance } from 'fastify';
import type { Database } from '../database/database.ts';
import type { DiskGuard } from '../disk/disk-guard.ts';

/**
 * `/healthz`: the process answers. `/readyz`: it can also reach its database and read its
 * data disk. A nearly full disk is reported (`disk: "nearly_full"`) but stays 200: only new
 * originals are refused then (DiskGuard), and a load balancer that dropped the instance would
 * turn that into an outage of every delivery. The disk's figures go to the log, not to this
 * unauthenticated answer: they would tell anyone how much it takes to fill it.
 */
export function registerHealthRoutes(app: FastifyInstance, database: Database, disk: Pick<DiskGuard, 'status'>): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await database.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ error: 'The database is not reachable.', code: 'not_ready' });
    }
    const status = await disk.status().catch((error: unknown) => {
      request.log.warn({ err: error }, 'data disk not readable');
      return undefined;
    });
    if (!status) return reply.code(503).send({ error: 'The data disk cannot be read.', code: 'not_ready' });
    if (status.nearlyFull) request.log.warn({ disk: status }, 'the data disk is nearly full');
    return { status: 'ready', database: database.kind, disk: status.nearlyFull ? 'nearly_full' : 'ok' };
  });
}
