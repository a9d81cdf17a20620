import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineJobHandlers } from './job-handlers.ts';
import type { JobOutcome } from './job-queue.ts';

const done = async (): Promise<JobOutcome> => ({ kind: 'done' });

describe('combining the domains’ job handlers', () => {
  it('puts each domain’s handlers into one map', () => {
    const handlers = combineJobHandlers({ 'alert.deliver': done }, { 'crawl.run': done }, { 'search-index.build': done });
    assert.deepEqual(Object.keys(handlers).sort(), ['alert.deliver', 'crawl.run', 'search-index.build']);
  });

  it('refuses two handlers for one job', () => {
    assert.throws(
      () => combineJobHandlers({ 'crawl.run': done, 'alert.deliver': done, 'search-index.build': done }, { 'crawl.run': done }),
      /more than one handler for crawl\.run/,
    );
  });

  it('refuses a job without a handler', () => {
    assert.throws(() => combineJobHandlers({}), /no handler for crawl\.run/);
  });
});
