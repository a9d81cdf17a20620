import { pino, type Logger } from 'pino';
import { openBlobStore } from '../blobs/open-blob-store.ts';
import type { Config } from '../config.ts';
import { migrateToLatest } from '../database/migrate.ts';
import { openDatabase } from '../database/open-database.ts';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { Plans } from '../plans/plans.ts';
import type { CreateJobHandlers } from './job-handlers.ts';
import type { JobQueue } from './job-queue.ts';
import { jobsRunIn, loggingObserver, openJobQueue } from './open-job-queue.ts';
import { startJobConsumers } from './start-job-consumers.ts';

export interface RunningWorker {
  jobs: JobQueue;
  /** Stops taking jobs, waits for the running ones (up to the queue's timeout), and closes. */
  close(): Promise<void>;
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
  const database = openDatabase(config);
  const blobs = openBlobStore(config);
  const fetcher = new GuardedFetcher({ allowPrivate: config.crawlAllowPrivate });
  let jobs: JobQueue | undefined;
  const close = async () => {
    await jobs?.stop();
    await fetcher.close();
    await blobs.close();
    await database.close();
  };
  try {
    // A worker may start before any server has: the schema must be current either way.
    await migrateToLatest(database);
    const plans = Plans.load(config.plansFile);
    jobs = await openJobQueue(config, database, loggingObserver(log));
    await startJobConsumers(jobs, { config, database, plans, blobs, fetcher, log, jobs }, createJobHandlers);
    return { jobs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
