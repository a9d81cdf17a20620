import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { MonthlyAllowance } from './credits/monthly-allowance.ts';
import type { Database } from './database/database.ts';
import type { DiskGuard } from './disk/disk-guard.ts';
import { UploadSlotSweeper } from './images/upload-slot-sweeper.ts';
import { openInfrastructure } from './infrastructure.ts';
import { createJobHandlers } from './job-wiring.ts';
import type { CreateJobHandlers } from './jobs/job-handlers.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { startJobConsumers } from './jobs/start-job-consumers.ts';
import type { Plans } from './plans/plans.ts';
import { type Bootstrapped, bootstrapInstance } from './provisioning/bootstrap.ts';
import { type Scheduler, schedulerFor } from './schedules/scheduler.ts';
import { startSchedulerLoop } from './schedules/scheduler-loop.ts';
import { closeConnectionsOnceIdle, ShutdownSteps } from './shutdown.ts';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  plans: Plans;
  jobs: JobQueue;
  /** Starts the crawls of due schedules; its loop ticks every config.schedulerTickMs, and tests call `tick` with chosen instants. */
  scheduler: Scheduler;
  /** Tops the credits up each month; ticked with the scheduler. */
  allowance: MonthlyAllowance;
  /** Removes expired upload slots and their staged files; ticked with the scheduler. */
  uploadSweeper: UploadSlotSweeper;
  /** The data disk's guard; ticked with the scheduler (the cache gives way, the space reserve is made again). */
  disk: DiskGuard;
  /** Where it listens, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Set on the first start of an empty database. */
  bootstrapped: Bootstrapped | null;
  /**
   * Stops accepting connections and ends event streams, hands running jobs back to the queue
   * (they stop at their next safe point) while requests in flight finish, then closes the rest.
   */
  close(): Promise<void>;
  /** What close() is still waiting on. */
  unfinished(): string[];
}

export interface ServerOptions {
  /**
   * The job handlers the server runs jobs with (when config.serveJobs); the real ones by default.
   * `loupe worker` processes run the same handlers without the HTTP server.
   */
  createJobHandlers?: CreateJobHandlers;
}

/** Opens and migrates the database, bootstraps an empty one, opens the job queue, and listens. */
export async function startServer(
  config: Config,
  log: Logger = pino({ level: config.logLevel }),
  options: ServerOptions = {},
): Promise<RunningServer> {
  const infrastructure = await openInfrastructure(config, log);
  const { database, plans, jobs } = infrastructure;
  try {
    // Checked at every start, not only the first: a typo is refused before it can matter.
    const plan = plans.defaultPlan(config.defaultPlan);
    const bootstrapped = await bootstrapInstance(database, { plans, plan, bootstrapKey: config.bootstrapKey });
    if (config.serveJobs) await startJobConsumers(jobs, infrastructure, options.createJobHandlers ?? createJobHandlers);
    const app = await buildApp(infrastructure);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const scheduler = schedulerFor(infrastructure);
    const allowance = new MonthlyAllowance(database, plans);
    const uploadSweeper = new UploadSlotSweeper(database, infrastructure.blobs);
    const steps = new ShutdownSteps();
    const connections = closeConnectionsOnceIdle(app.server);
    const schedulerLoop = startSchedulerLoop([allowance, scheduler, uploadSweeper, infrastructure.disk], config.schedulerTickMs, log);
    return {
      app,
      database,
      plans,
      jobs,
      scheduler,
      allowance,
      uploadSweeper,
      disk: infrastructure.disk,
      url: `http://${host}:${port}`,
      bootstrapped,
      async close() {
        await Promise.all([
          steps.run('scheduler tick', () => schedulerLoop.stop()),
          steps.run('HTTP requests in flight', () => {
            connections.closing();
            return app.close();
          }),
          steps.run(
            'running jobs',
            () => jobs.stop(),
            () => jobs.running().map((job) => `${job.name} ${job.jobId}`),
          ),
        ]);
        await steps.run('closing the database and stores', () => infrastructure.close());
      },
      unfinished: () => steps.unfinished(),
    };
  } catch (error) {
    await infrastructure.close();
    throw error;
  }
}
