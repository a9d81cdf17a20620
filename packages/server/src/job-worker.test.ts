import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { type Config, loadConfig } from './config.ts';
import { startJobWorker } from './job-worker.ts';
import type { CreateJobHandlers } from './jobs/job-handlers.ts';
import type { JobOutcome } from './jobs/job-queue.ts';
import { jobQueueSchema } from './jobs/open-job-queue.ts';
import { startServer } from './server.ts';
import { createTestSchema, testDatabaseUrl } from './testing/test-database.ts';
import { testDialects } from './testing/test-dialects.ts';

const run = promisify(execFile);
const cli = new URL('./cli.ts', import.meta.url).pathname;
const silent = pino({ level: 'silent' });

/** Handlers that report the crawls they run. */
function recordingHandlers(): { createJobHandlers: CreateJobHandlers; crawled: Promise<string> } {
  let report!: (crawlId: string) => void;
  const crawled = new Promise<string>((resolve) => {
    report = resolve;
  });
  const unexpected = async (): Promise<JobOutcome> => ({ kind: 'failed', reason: 'no test sends this job' });
  const createJobHandlers: CreateJobHandlers = () => ({
    'crawl.run': async ({ crawlId }) => {
      report(crawlId);
      return { kind: 'done' };
    },
    'alert.deliver': unexpected,
    'search-index.build': unexpected,
  });
  return { createJobHandlers, crawled };
}

describe('jobs on the embedded database', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loupe-jobs-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('are run by the server itself', async () => {
    const { createJobHandlers, crawled } = recordingHandlers();
    const config: Config = { ...loadConfig({}), port: 0, dataDir, logLevel: 'silent' };
    const server = await startServer(config, silent, { createJobHandlers });
    try {
      await server.jobs.send('crawl.run', { crawlId: 'crawl-1' });
      assert.equal(await crawled, 'crawl-1');
    } finally {
      await server.close();
    }
  });

  it('leave `loupe worker` refusing to start, pointing to serve', async () => {
    const env = { ...process.env, LOUPE_DATA_DIR: dataDir, DATABASE_URL: '' };
    const failed = await run(process.execPath, [cli, 'worker'], { env }).then(
      () => assert.fail('loupe worker started on SQLite'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, /DATABASE_URL/);
    assert.match(failed.stderr, /loupe serve/);
  });
});

if (testDialects().includes('postgres')) {
  describe('jobs on PostgreSQL', () => {
    let config: Config;
    let cleanUp: () => Promise<void>;
    before(async () => {
      const url = testDatabaseUrl();
      const loupeSchema = await createTestSchema(url);
      const dataDir = await mkdtemp(join(tmpdir(), 'loupe-jobs-'));
      config = { ...loadConfig({}), port: 0, dataDir, databaseUrl: url, databaseSchema: loupeSchema.schema, logLevel: 'silent' };
      cleanUp = async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists ${jobQueueSchema(config)} cascade`);
        await client.end();
        await loupeSchema.drop();
        await rm(dataDir, { recursive: true, force: true });
      };
    });
    after(() => cleanUp());

    it('are queued by a server that leaves them to workers, and run by a worker', async () => {
      const server = await startServer({ ...config, serveJobs: false }, silent);
      const { createJobHandlers, crawled } = recordingHandlers();
      const worker = await startJobWorker(config, createJobHandlers, silent);
      try {
        await server.jobs.send('crawl.run', { crawlId: 'crawl-1' });
        assert.equal(await crawled, 'crawl-1');
      } finally {
        await worker.close();
        await server.close();
      }
    });
  });
}
