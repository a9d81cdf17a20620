import { type Logger, pino } from 'pino';
import type { Config } from './config.ts';
import { MonthlyAllowance } from './credits/monthly-allowance.ts';
import { openInfrastructure } from './infrastructure.ts';
import type { CreateJobHandlers } from './jobs/job-handlers.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { jobsRunIn } from './jobs/open-job-queue.ts';
import { startJobConsumers } from './jobs/start-job-consumers.ts';
import { type Scheduler, schedulerFor } from './schedules/scheduler.ts';
import { startSchedulerLoop } from './schedules/scheduler-loop.ts';
import { ShutdownSteps } from './shutdown.ts';

export interface RunningWorker {
  jobs: JobQueue;
  /** Workers tick schedules too, so due runs start while every `loupe serve` is down. */
  scheduler: Scheduler;
  /** Stops taking jobs, hands the running ones back to the queue at their next safe point, and closes. */
  close(): Promise<void>;
  /** What close() is still waiting on. */
  unfinished(): string[];
}

/**
 * `loupe worker`: runs jobs from PostgreSQL without the HTTP server (DESIGN.md §2); start as
 * many as the load needs. With the embedded database there is nothing to share jobs through,
 * so it refuses: `loupe serve` runs those jobs itself.
 */
export async function startJobWorker(
  config: Config,
  createJobHandlers: CreateJobHandlers,
  log: Logger = pino({ level: config.logLevel }),
): Promise<RunningWorker> {
  if (jobsRunIn(config) === 'serve') {
    throw new Error(
      'loupe worker takes jobs from PostgreSQL: set DATABASE_URL. With the embedded SQLite database, `loupe serve` runs jobs itself.',
    );
  }
  const infrastructure = await openInfrastructure(config, log);
  try {
    await startJobConsumers(infrastructure.jobs, infrastructure, createJobHandlers);
    const scheduler = schedulerFor(infrastructure);
    const allowance = new MonthlyAllowance(infrastructure.database, infrastructure.plans);
    const schedulerLoop = startSchedulerLoop([allowance, scheduler], config.schedulerTickMs, log);
    const steps = new ShutdownSteps();
    return {
      jobs: infrastructure.jobs,
      scheduler,
      async close() {
        await Promise.all([
          steps.run('scheduler tick', () => schedulerLoop.stop()),
          steps.run(
            'running jobs',
            () => infrastructure.jobs.stop(),
            () => infrastructure.jobs.running().map((job) => `${job.name} ${job.jobId}`),
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
