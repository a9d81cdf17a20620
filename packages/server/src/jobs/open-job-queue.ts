import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../database/database.ts';
import { DatabaseJobQueue } from './database-job-queue.ts';
import type { JobQueue, JobQueueObserver, JobSettlement } from './job-queue.ts';

type QueueConfig = Pick<Config, 'databaseUrl' | 'databaseSchema'> & Partial<Pick<Config, 'jobLeaseSeconds' | 'shutdownSeconds'>>;

/**
 * Where jobs run (DESIGN.md §2): inside `loupe serve` with the embedded database, in
 * `loupe worker` processes with PostgreSQL. The one place that branches on it, with openJobQueue.
 */
export function jobsRunIn(config: QueueConfig): 'serve' | 'worker' {
  return config.databaseUrl ? 'worker' : 'serve';
}

/** pg-boss's own schema beside Loupe's: `loupe_jobs`, or `<schema>_jobs` when Loupe has its own schema. */
export function jobQueueSchema(config: QueueConfig): string {
  return config.databaseSchema ? `${config.databaseSchema}_jobs` : 'loupe_jobs';
}

/** A job handed back by a shutdown is news to whoever watches the shutdown. */
const LOG_LEVELS: Partial<Record<JobSettlement['state'], 'warn' | 'info'>> = { failed: 'warn', lost: 'warn', released: 'info' };

/** Reports what the queue does to the log: failures as warnings, jobs handed back at info, the rest at debug. */
export function loggingObserver(log: Logger): JobQueueObserver {
  return {
    onSettled(settlement) {
      const level = LOG_LEVELS[settlement.state] ?? 'debug';
      log[level]({ job: settlement }, `job ${settlement.name} ${settlement.state}`);
    },
    onError(error) {
      log.error({ err: error }, 'job queue error');
    },
  };
}

/** pg-boss on PostgreSQL, else the embedded queue in the service's own database. */
export async function openJobQueue(config: QueueConfig, database: Database, observer: JobQueueObserver): Promise<JobQueue> {
  const leaseSeconds = config.jobLeaseSeconds ?? 30;
  // Running jobs get the whole shutdown to hand themselves back; the process's deadline ends any left.
  const stopTimeoutMs = (config.shutdownSeconds ?? 30) * 1000;
  if (jobsRunIn(config) === 'serve') return new DatabaseJobQueue(database, { ...observer, leaseMs: leaseSeconds * 1000, stopTimeoutMs });
  // Loaded only here, so the embedded default never loads pg-boss.
  const { PgBossJobQueue } = await import('./pg-boss-job-queue.ts');
  // pg-boss takes heartbeats of 10 s at the least.
  return PgBossJobQueue.open({
    connectionString: config.databaseUrl as string,
    schema: jobQueueSchema(config),
    leaseSeconds: Math.max(10, leaseSeconds),
    stopTimeoutMs,
    ...observer,
  });
}
