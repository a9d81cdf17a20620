import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ShutdownSteps } from './shutdown.ts';

describe('the steps of a shutdown', () => {
  it('names each step until it settles, with what it still waits on', async () => {
    const steps = new ShutdownSteps();
    let finishJobs!: () => void;
    let failStore!: (error: Error) => void;
    let running = ['crawl.run 01a2'];
    const jobs = steps.run(
      'running jobs',
      () => new Promise<void>((resolve) => (finishJobs = resolve)),
      () => running,
    );
    const store = steps.run('closing the store', () => new Promise<void>((_resolve, reject) => (failStore = reject)));
    assert.deepEqual(steps.unfinished(), ['running jobs: crawl.run 01a2', 'closing the store']);
    running = [];
    assert.deepEqual(steps.unfinished(), ['running jobs', 'closing the store']);
    finishJobs();
    await jobs;
    assert.deepEqual(steps.unfinished(), ['closing the store']);
    failStore(new Error('disk gone'));
    await assert.rejects(store, /disk gone/);
    assert.deepEqual(steps.unfinished(), []);
  });
});
