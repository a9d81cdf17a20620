/**
 * A worker process for crash tests (run as a child): it takes crawl.run jobs from the embedded
 * queue, prints `{"jobId","attempt"}` for each and never finishes one, so the test can kill it
 * with SIGKILL while it holds the job. The database is named by LOUPE_TEST_SQLITE_FILE, or by
 * LOUPE_TEST_PG_URL and LOUPE_TEST_PG_SCHEMA; LOUPE_TEST_LEASE_MS sets the lease.
 */
import type { Database } from '../database/database.ts';
import { openPostgresDatabase } from '../database/postgres-database.ts';
import { openSqliteDatabase } from '../database/sqlite-database.ts';
import { DatabaseJobQueue } from '../jobs/database-job-queue.ts';
import type { JobOutcome } from '../jobs/job-queue.ts';

function openFromEnvironment(): Database {
  const file = process.env.LOUPE_TEST_SQLITE_FILE;
  if (file) return openSqliteDatabase(file);
  const url = process.env.LOUPE_TEST_PG_URL;
  if (!url) throw new Error('set LOUPE_TEST_SQLITE_FILE or LOUPE_TEST_PG_URL');
  return openPostgresDatabase({ url, schema: process.env.LOUPE_TEST_PG_SCHEMA, poolSize: 2 });
}

const queue = new DatabaseJobQueue(openFromEnvironment(), {
  leaseMs: Number(process.env.LOUPE_TEST_LEASE_MS ?? 1000),
  pollIntervalMs: 100,
});
const never = async (): Promise<JobOutcome> => new Promise<JobOutcome>(() => {});
await queue.work(
  {
    'crawl.run': async (_payload, context) => {
      process.stdout.write(`${JSON.stringify({ jobId: context.jobId, attempt: context.attempt })}\n`);
      return never();
    },
    'alert.deliver': never,
    'search-index.build': never,
  },
  { concurrency: {} },
);
