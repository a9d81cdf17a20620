import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concurrencyOf, type JobContext, type JobHandlers, type JobOutcome, runHandler, validateHandlers } from './job-queue.ts';
import { jobNames } from './job-types.ts';

const done = async (): Promise<JobOutcome> => ({ kind: 'done' });
const allHandlers: JobHandlers = { 'crawl.run': done, 'alert.deliver': done, 'search-index.build': done };
const context: JobContext = { jobId: 'j1', attempt: 3, signal: new AbortController().signal, heartbeat: async () => {} };

describe('job handlers', () => {
  it('accepts a handler for every job', () => {
    assert.doesNotThrow(() => validateHandlers(allHandlers));
  });

  it('refuses to start without a handler for each job, naming the missing ones', () => {
    const { 'crawl.run': _crawl, ...partial } = allHandlers;
    assert.throws(() => validateHandlers(partial), /no handler for crawl\.run/);
  });

  it('refuses a handler for a job that does not exist', () => {
    assert.throws(() => validateHandlers({ ...allHandlers, 'crawl.runn': done }), /unknown jobs crawl\.runn/);
  });

  it('names every job of JobPayloads once', () => {
    assert.deepEqual([...jobNames].sort(), ['alert.deliver', 'crawl.run', 'search-index.build']);
  });

  it('turns a handler that throws into a retry that backs off with the attempt', async () => {
    const throwing: JobHandlers = {
      ...allHandlers,
      'crawl.run': async () => {
        throw new Error('ECONNRESET');
      },
    };
    const outcome = await runHandler(throwing, 'crawl.run', { crawlId: 'c1' }, context);
    assert.deepEqual(outcome, { kind: 'retry', after: 4_000, reason: 'handler threw: ECONNRESET' });
  });

  it('runs one handler of each job at once unless told otherwise', () => {
    assert.deepEqual(concurrencyOf({ concurrency: {} }), { 'crawl.run': 1, 'alert.deliver': 1, 'search-index.build': 1 });
    assert.deepEqual(concurrencyOf({ concurrency: { 'crawl.run': 3 } }), { 'crawl.run': 3, 'alert.deliver': 1, 'search-index.build': 1 });
    assert.throws(() => concurrencyOf({ concurrency: { 'crawl.run': 0 } }), /whole number/);
  });
});
