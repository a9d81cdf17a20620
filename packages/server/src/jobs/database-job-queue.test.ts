import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Database } from '../database/database.ts';
import { newId } from '../ids.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { DatabaseJobQueue } from './database-job-queue.ts';
import type { JobHandlers, JobOutcome, JobQueue, JobSettlement } from './job-queue.ts';
import type { JobName, JobPayloads } from './job-types.ts';
import { describeJobQueueContract, type JobQueueSubject } from './test-job-queue-contract.ts';

/** Short leases and polls keep the tests quick; the behaviour does not depend on their length. */
const TEST_TIMING = { leaseMs: 600, pollIntervalMs: 100, stopTimeoutMs: 5_000 };

/** Writes a job row as another process would have left it. */
async function insertJob<N extends JobName>(
  store: TestDatabase,
  name: N,
  payload: JobPayloads[N],
  row: { state: string; attempts: number; lockedUntil: Date | null },
): Promise<string> {
  const id = newId();
  const past = new Date(Date.now() - 60_000).toISOString();
  await store.database.db
    .insertInto('jobs')
    .values({
      id,
      name,
      payload: JSON.stringify(payload),
      state: row.state,
      attempts: row.attempts,
      run_after: past,
      locked_until: row.lockedUntil?.toISOString() ?? null,
      created_at: past,
    })
    .execute();
  return id;
}

function jobRow(store: TestDatabase, id: string) {
  return store.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const done: JobOutcome = { kind: 'done' };

function crawlHandlers(crawl: JobHandlers['crawl.run']): JobHandlers {
  const unexpected = async (): Promise<JobOutcome> => ({ kind: 'failed', reason: 'no test sends this job' });
  return { 'crawl.run': crawl, 'alert.deliver': unexpected, 'search-index.build': unexpected };
}

/** Resolves with the first settlement of a job, reported through onSettled. */
function settlementOf(id: () => string | undefined) {
  let found!: (settlement: JobSettlement) => void;
  const settled = new Promise<JobSettlement>((resolve) => {
    found = resolve;
  });
  return { settled, onSettled: (s: JobSettlement) => s.jobId === id() && found(s) };
}

for (const dialect of testDialects()) {
  // One database for the contract's tests, emptied of jobs before each (a schema per test would
  // mean many schemas created and dropped while other test files run).
  let shared: TestDatabase | undefined;
  after(() => shared?.close());

  describeJobQueueContract(`database (${dialect})`, async (): Promise<JobQueueSubject> => {
    const store = (shared ??= await openTestDatabase(dialect));
    await store.database.db.deleteFrom('jobs').execute();
    const opened: { queue: JobQueue; database: Database }[] = [];
    return {
      async open(options = {}) {
        // Each queue on its own connection, as a separate process would be.
        const database = store.connect();
        const queue = new DatabaseJobQueue(database, { ...TEST_TIMING, ...options });
        opened.push({ queue, database });
        return queue;
      },
      abandonJob: (name, payload) =>
        insertJob(store, name, payload, { state: 'running', attempts: 1, lockedUntil: new Date(Date.now() - 60_000) }),
      async close() {
        await Promise.all(opened.map(({ queue }) => queue.stop()));
        await Promise.all(opened.map(({ database }) => database.close()));
      },
    };
  });

  describe(`database job queue (${dialect})`, { timeout: 60_000 }, () => {
    let store: TestDatabase;
    let queue: DatabaseJobQueue | undefined;
    before(async () => {
      store = await openTestDatabase(dialect);
    });
    after(() => store.close());
    beforeEach(async () => {
      await store.database.db.deleteFrom('jobs').execute();
    });
    afterEach(async () => {
      await queue?.stop();
      queue = undefined;
    });

    it('leaves alone a running job whose worker still holds it', async () => {
      const held = await insertJob(
        store,
        'crawl.run',
        { crawlId: 'held' },
        {
          state: 'running',
          attempts: 1,
          lockedUntil: new Date(Date.now() + 60_000),
        },
      );
      let sent: string | undefined;
      const { settled, onSettled } = settlementOf(() => sent);
      const ran: string[] = [];
      queue = new DatabaseJobQueue(store.connect(), { ...TEST_TIMING, onSettled });
      await queue.work(
        crawlHandlers(async (payload) => {
          ran.push(payload.crawlId);
          return done;
        }),
        { concurrency: { 'crawl.run': 2 } },
      );
      sent = await queue.send('crawl.run', { crawlId: 'fresh' });
      await settled;
      assert.deepEqual(ran, ['fresh']);
      const row = await jobRow(store, held);
      assert.equal(row.state, 'running');
      assert.equal(row.attempts, 1);
    });

    it('renews the hold of a job when its handler heartbeats', async () => {
      let sent: string | undefined;
      const { settled, onSettled } = settlementOf(() => sent);
      const leaseMs = 60_000;
      let heartbeatAt = 0;
      let heldUntil = 0;
      queue = new DatabaseJobQueue(store.connect(), { ...TEST_TIMING, leaseMs, onSettled });
      await queue.work(
        crawlHandlers(async (_payload, context) => {
          heartbeatAt = Date.now();
          await context.heartbeat();
          heldUntil = Date.parse((await jobRow(store, context.jobId)).locked_until as string);
          return done;
        }),
        { concurrency: {} },
      );
      sent = await queue.send('crawl.run', { crawlId: 'long' });
      await settled;
      // A full lease from the heartbeat on, not from when the job was taken.
      assert.ok(heldUntil >= heartbeatAt + leaseMs, `held until ${heldUntil - heartbeatAt} ms after the heartbeat`);
    });

    it('fails, without running it, a job taken back from dead workers as often as it has attempts', async () => {
      const id = await insertJob(
        store,
        'crawl.run',
        { crawlId: 'kills its worker' },
        {
          state: 'running',
          attempts: 3,
          lockedUntil: new Date(Date.now() - 1_000),
        },
      );
      const { settled, onSettled } = settlementOf(() => id);
      let ran = false;
      queue = new DatabaseJobQueue(store.connect(), { ...TEST_TIMING, maxAttempts: 3, onSettled });
      await queue.work(
        crawlHandlers(async () => {
          ran = true;
          return done;
        }),
        { concurrency: {} },
      );
      assert.equal((await settled).state, 'failed');
      assert.equal(ran, false);
      const row = await jobRow(store, id);
      assert.equal(row.state, 'failed');
      assert.match(row.last_error ?? '', /stopped renewing/);
    });

    it('keeps the outcome of each run on the job row', async () => {
      let sent: string | undefined;
      const settlements: JobSettlement[] = [];
      let finished!: () => void;
      const twoRuns = new Promise<void>((resolve) => {
        finished = resolve;
      });
      queue = new DatabaseJobQueue(store.connect(), {
        ...TEST_TIMING,
        onSettled: (s) => {
          if (s.jobId !== sent) return;
          settlements.push(s);
          if (settlements.length === 2) finished();
        },
      });
      const rows: { state: string; last_error: string | null }[] = [];
      await queue.work(
        crawlHandlers(async (_payload, context) => {
          if (context.attempt === 2) rows.push(await jobRow(store, context.jobId));
          return context.attempt === 1 ? { kind: 'retry', after: 0, reason: 'robots.txt timed out' } : done;
        }),
        { concurrency: {} },
      );
      sent = await queue.send('crawl.run', { crawlId: 'c1' });
      await twoRuns;
      assert.equal(rows[0].last_error, 'robots.txt timed out');
      const row = await jobRow(store, sent);
      assert.equal(row.state, 'done');
      assert.equal(row.attempts, 2);
      assert.equal(row.locked_until, null);
      assert.ok(row.finished_at);
    });

    it('resumes a job in another process after its worker process is killed with SIGKILL', async () => {
      const sender = new DatabaseJobQueue(store.database);
      const id = await sender.send('crawl.run', { crawlId: 'crawl-1' });
      const environment =
        'sqliteFile' in store.location
          ? { LOUPE_TEST_SQLITE_FILE: store.location.sqliteFile }
          : { LOUPE_TEST_PG_URL: store.location.url, LOUPE_TEST_PG_SCHEMA: store.location.schema };
      const child = spawn(process.execPath, [new URL('../testing/dying-worker.ts', import.meta.url).pathname], {
        env: { ...process.env, ...environment, LOUPE_TEST_LEASE_MS: '600' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = once(child, 'exit');
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      assert.deepEqual(JSON.parse(line), { jobId: id, attempt: 1 });
      child.kill('SIGKILL');
      const [, signal] = await exited;
      assert.equal(signal, 'SIGKILL');
      assert.equal((await jobRow(store, id)).state, 'running');

      const { settled, onSettled } = settlementOf(() => id);
      const runs: { crawlId: string; attempt: number }[] = [];
      queue = new DatabaseJobQueue(store.connect(), { ...TEST_TIMING, onSettled });
      await queue.work(
        crawlHandlers(async (payload, context) => {
          runs.push({ crawlId: payload.crawlId, attempt: context.attempt });
          return done;
        }),
        { concurrency: {} },
      );
      assert.equal((await settled).state, 'done');
      assert.deepEqual(runs, [{ crawlId: 'crawl-1', attempt: 2 }]);
    });
  });
}
