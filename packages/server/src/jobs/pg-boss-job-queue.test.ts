import { after } from 'node:test';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { createTestSchema, testDatabaseUrl } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import type { JobQueue } from './job-queue.ts';
import { PgBossJobQueue } from './pg-boss-job-queue.ts';
import { describeJobQueueContract, type JobQueueSubject } from './test-job-queue-contract.ts';

/** Fast polls and supervision keep the tests quick; production uses the defaults. */
const TEST_TIMING = { pollIntervalSeconds: 0.5, superviseIntervalSeconds: 1, retryParkSeconds: 1, stopTimeoutMs: 5_000, poolSize: 2 };

async function execute(url: string, statement: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement, values);
  } finally {
    await client.end();
  }
}

// pg-boss runs on PostgreSQL only: these suites exist when TEST_DATABASE_URL is set.
if (testDialects().includes('postgres')) {
  // One pg-boss schema for the file, emptied of jobs before each test.
  let shared: Promise<{ schema: string; drop(): Promise<void> }> | undefined;
  after(async () => (await shared)?.drop());

  describeJobQueueContract('pg-boss', async (): Promise<JobQueueSubject> => {
    const url = testDatabaseUrl();
    shared ??= createTestSchema(url, 'test_jobs').then(async (created) => {
      // Installs pg-boss and its queues in the schema.
      await (await PgBossJobQueue.open({ connectionString: url, schema: created.schema, ...TEST_TIMING })).stop();
      return created;
    });
    const { schema } = await shared;
    await execute(url, `delete from ${schema}.job`);
    const queues: JobQueue[] = [];
    return {
      async open(options = {}) {
        const queue = await PgBossJobQueue.open({ connectionString: url, schema, ...TEST_TIMING, ...options });
        queues.push(queue);
        return queue;
      },
      async abandonJob(name, payload) {
        // A worker takes the job and dies: fetched and never settled, its heartbeat an hour old.
        const deadWorker = new PgBoss({ connectionString: url, schema, max: 1, supervise: false, schedule: false, migrate: false });
        await deadWorker.start();
        try {
          const id = await deadWorker.send(name, payload, { singletonKey: `abandoned:${name}` });
          const [job] = await deadWorker.fetch(name);
          if (!id || job?.id !== id) throw new Error('the abandoned job was not fetched');
          await deadWorker
            .getDb()
            .executeSql(
              `update ${schema}.job set heartbeat_on = now() - interval '1 hour', started_on = now() - interval '1 hour' where id = $1`,
              [id],
            );
          return id;
        } finally {
          await deadWorker.stop({ graceful: false });
        }
      },
      async close() {
        await Promise.all(queues.map((queue) => queue.stop()));
      },
    };
  });
}
