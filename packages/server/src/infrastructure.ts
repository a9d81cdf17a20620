import type { Logger } from 'pino';
import type { BlobStore } from './blobs/blob-store.ts';
import { openBlobStore } from './blobs/open-blob-store.ts';
import type { Config } from './config.ts';
import type { Database } from './database/database.ts';
import { migrateToLatest } from './database/migrate.ts';
import { openDatabase } from './database/open-database.ts';
import { DiskGuard } from './disk/disk-guard.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { loggingObserver, openJobQueue } from './jobs/open-job-queue.ts';
import { GuardedFetcher } from './outbound/guarded-fetch.ts';
import { Plans } from './plans/plans.ts';

/** What every process of Loupe stands on: `loupe serve` and `loupe worker` open the same. */
export interface Infrastructure {
  config: Config;
  database: Database;
  plans: Plans;
  blobs: BlobStore;
  /** The data disk: refuses what would fill it, takes the variant cache's space back first (disk/disk-guard.ts). */
  disk: DiskGuard;
  fetcher: GuardedFetcher;
  log: Logger;
  /** Background jobs: crawls now; index builds and alert deliveries as they land (DESIGN.md §2). */
  jobs: JobQueue;
}

export interface OpenInfrastructure extends Infrastructure {
  /** Stops the job queue first (running jobs still use the rest), then closes everything. */
  close(): Promise<void>;
}

/** Opens and migrates the database, loads the plans, opens the blob store, the fetcher and the job queue. */
export async function openInfrastructure(config: Config, log: Logger): Promise<OpenInfrastructure> {
  const disk = new DiskGuard(config.dataDir, config.disk, log);
  const database = openDatabase(config);
  const blobs = openBlobStore(config, (bytes) => disk.makeRoom(bytes));
  const fetcher = new GuardedFetcher({ allowPrivate: config.crawlAllowPrivate, lookup: config.resolve });
  let jobs: JobQueue | undefined;
  const close = async () => {
    await jobs?.stop();
    await fetcher.close();
    await blobs.close();
    await database.close();
  };
  try {
    await disk.open();
    // Any process may start first: the schema must be current either way.
    await migrateToLatest(database);
    const plans = Plans.load(config.plansFile);
    jobs = await openJobQueue(config, database, loggingObserver(log));
    return { config, database, plans, blobs, disk, fetcher, log, jobs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
