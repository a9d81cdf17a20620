import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import type { JobContext, JobHandler, JobHandlers, JobOutcome, JobQueue, JobQueueObserver, JobSettlement } from './job-queue.ts';
import type { JobName, JobPayloads } from './job-types.ts';

/** A store of jobs (a database, a pg-boss schema) that several queues, as several processes, share. */
export interface JobQueueSubject {
  /** A queue on the shared store as one process opens it; stopped by close(). */
  open(options?: { maxAttempts?: number } & JobQueueObserver): Promise<JobQueue>;
  /** Leaves a job as a worker that died holding it would: running its first attempt, its hold lapsed. */
  abandonJob<N extends JobName>(name: N, payload: JobPayloads[N]): Promise<string>;
  close(): Promise<void>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/**
 * Collects a queue's settlements so a test can wait for one instead of sleeping. An error the
 * queue reports fails whatever the test is waiting for.
 */
class Settlements {
  readonly all: JobSettlement[] = [];
  #error: unknown;
  readonly #waiters: { match: (s: JobSettlement) => boolean; found: Deferred<JobSettlement> }[] = [];

  readonly observer: JobQueueObserver = {
    onSettled: (settlement) => {
      this.all.push(settlement);
      for (const waiter of this.#waiters.filter((w) => w.match(settlement))) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.found.resolve(settlement);
      }
    },
    onError: (error) => {
      this.#error ??= error;
      for (const waiter of this.#waiters.splice(0)) waiter.found.reject(error);
    },
  };

  waitFor(match: (s: JobSettlement) => boolean): Promise<JobSettlement> {
    if (this.#error) return Promise.reject(this.#error);
    const past = this.all.find(match);
    if (past) return Promise.resolve(past);
    const found = deferred<JobSettlement>();
    this.#waiters.push({ match, found });
    return found.promise;
  }
}

const done: JobOutcome = { kind: 'done' };

/** Test handlers: the ones given, and for the other names one that fails, since no test sends those. */
function handlers(given: Partial<JobHandlers>): JobHandlers {
  const unexpected = async (): Promise<JobOutcome> => ({ kind: 'failed', reason: 'no test sends this job' });
  return { 'crawl.run': unexpected, 'alert.deliver': unexpected, 'search-index.build': unexpected, ...given };
}

/** The behaviour every JobQueue keeps, specified once and run against each implementation. */
export function describeJobQueueContract(label: string, makeSubject: () => Promise<JobQueueSubject>): void {
  describe(`job queue contract: ${label}`, { timeout: 60_000 }, () => {
    /** Runs a test on a fresh store, closing it (and every queue opened on it) whatever happens. */
    const withSubject = (test: (subject: JobQueueSubject) => Promise<void>) => async () => {
      const subject = await makeSubject();
      try {
        await test(subject);
      } finally {
        await subject.close();
      }
    };

    it(
      'runs the handler of a sent job with its payload, on its first attempt',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        const seen = deferred<{ payload: JobPayloads['crawl.run']; context: JobContext }>();
        await queue.work(
          handlers({
            'crawl.run': async (payload, context) => {
              seen.resolve({ payload, context });
              return done;
            },
          }),
          { concurrency: {} },
        );
        const id = await queue.send('crawl.run', { crawlId: 'crawl-1' });
        const { payload, context } = await seen.promise;
        assert.deepEqual(payload, { crawlId: 'crawl-1' });
        assert.equal(context.jobId, id);
        assert.equal(context.attempt, 1);
        assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'done');
      }),
    );

    it(
      'runs no more handlers of one name at once than its concurrency',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        let running = 0;
        let most = 0;
        const twoStarted = deferred();
        const release = deferred();
        await queue.work(
          handlers({
            'crawl.run': async () => {
              running += 1;
              most = Math.max(most, running);
              if (running === 2) twoStarted.resolve();
              await release.promise;
              running -= 1;
              return done;
            },
          }),
          { concurrency: { 'crawl.run': 2 } },
        );
        const crawls = await Promise.all([1, 2, 3, 4].map((n) => queue.send('crawl.run', { crawlId: `crawl-${n}` })));
        await twoStarted.promise;
        assert.equal(running, 2);
        release.resolve();
        for (const id of crawls) assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'done');
        assert.equal(most, 2);
      }),
    );

    it(
      'runs a job again after the delay its handler asked for',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        const attempts: { attempt: number; at: number }[] = [];
        await queue.work(
          handlers({
            'crawl.run': async (_payload, context) => {
              attempts.push({ attempt: context.attempt, at: Date.now() });
              return context.attempt === 1 ? { kind: 'retry', after: 300, reason: 'site busy' } : done;
            },
          }),
          { concurrency: {} },
        );
        const id = await queue.send('crawl.run', { crawlId: 'crawl-1' });
        const first = await settlements.waitFor((s) => s.jobId === id);
        assert.equal(first.state, 'retrying');
        const retriedAt = Date.now();
        assert.equal((await settlements.waitFor((s) => s.jobId === id && s.attempt === 2)).state, 'done');
        assert.deepEqual(
          attempts.map((a) => a.attempt),
          [1, 2],
        );
        assert.ok(attempts[1].at - retriedAt >= 250, `ran again after ${attempts[1].at - retriedAt} ms`);
      }),
    );

    it(
      'fails a job once it has used all its attempts',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open({ maxAttempts: 3, ...settlements.observer });
        const attempts: number[] = [];
        await queue.work(
          handlers({
            'crawl.run': async (_payload, context) => {
              attempts.push(context.attempt);
              return { kind: 'retry', after: 0, reason: 'still down' };
            },
          }),
          { concurrency: {} },
        );
        const id = await queue.send('crawl.run', { crawlId: 'crawl-1' });
        const last = await settlements.waitFor((s) => s.jobId === id && s.state === 'failed');
        assert.equal(last.attempt, 3);
        assert.deepEqual(attempts, [1, 2, 3]);
      }),
    );

    it(
      'fails a job at once when its handler answers failed',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        await queue.work(handlers({ 'crawl.run': async () => ({ kind: 'failed', reason: 'no such crawl' }) }), {
          concurrency: {},
        });
        const id = await queue.send('crawl.run', { crawlId: 'gone' });
        const settled = await settlements.waitFor((s) => s.jobId === id);
        assert.equal(settled.state, 'failed');
        assert.equal(settled.attempt, 1);
      }),
    );

    it(
      'runs a job again when its handler throws',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        await queue.work(
          handlers({
            'crawl.run': async (_payload, context) => {
              if (context.attempt === 1) throw new Error('socket hang up');
              return done;
            },
          }),
          { concurrency: {} },
        );
        const id = await queue.send('crawl.run', { crawlId: 'crawl-1' });
        const first = await settlements.waitFor((s) => s.jobId === id);
        assert.equal(first.state, 'retrying');
        assert.match(first.outcome.kind === 'retry' ? first.outcome.reason : '', /socket hang up/);
        assert.equal((await settlements.waitFor((s) => s.jobId === id && s.attempt === 2)).state, 'done');
      }),
    );

    it(
      'takes back a job whose worker died holding it, and completes it (a crawl resumes after kill -9)',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const id = await subject.abandonJob('crawl.run', { crawlId: 'crawl-1' });
        const queue = await subject.open(settlements.observer);
        const seen = deferred<{ payload: JobPayloads['crawl.run']; context: JobContext }>();
        await queue.work(
          handlers({
            'crawl.run': async (payload, context) => {
              seen.resolve({ payload, context });
              return done;
            },
          }),
          { concurrency: {} },
        );
        const { payload, context } = await seen.promise;
        assert.deepEqual(payload, { crawlId: 'crawl-1' });
        assert.equal(context.jobId, id);
        assert.equal(context.attempt, 2);
        assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'done');
      }),
    );

    it(
      'queues one job per singleton key while it is queued or running',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        const first = await queue.send('crawl.run', { crawlId: 'p1' }, { singletonKey: 'p1' });
        const second = await queue.send('crawl.run', { crawlId: 'p1' }, { singletonKey: 'p1' });
        const other = await queue.send('crawl.run', { crawlId: 'p2' }, { singletonKey: 'p2' });
        assert.equal(second, first);
        assert.notEqual(other, first);
        const built: string[] = [];
        await queue.work(
          handlers({
            'crawl.run': async (payload) => {
              built.push(payload.crawlId);
              return done;
            },
          }),
          { concurrency: {} },
        );
        await settlements.waitFor((s) => s.jobId === first);
        await settlements.waitFor((s) => s.jobId === other);
        const afterwards = await queue.send('crawl.run', { crawlId: 'p1' }, { singletonKey: 'p1' });
        assert.notEqual(afterwards, first);
        await settlements.waitFor((s) => s.jobId === afterwards);
        assert.deepEqual(built.sort(), ['p1', 'p1', 'p2']);
      }),
    );

    it(
      'does not run a job before its runAfter time',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        let ranAt = 0;
        await queue.work(
          handlers({
            'crawl.run': async () => {
              ranAt = Date.now();
              return done;
            },
          }),
          { concurrency: {} },
        );
        const runAfter = new Date(Date.now() + 300);
        const id = await queue.send('crawl.run', { crawlId: 'd1' }, { runAfter });
        await settlements.waitFor((s) => s.jobId === id);
        assert.ok(ranAt >= runAfter.getTime() - 50, `ran ${runAfter.getTime() - ranAt} ms early`);
      }),
    );

    it(
      'aborts the signal of a running handler when the queue stops',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        const started = deferred<AbortSignal>();
        await queue.work(
          handlers({
            'crawl.run': async (_payload, context) => {
              started.resolve(context.signal);
              if (!context.signal.aborted) await once(context.signal, 'abort');
              return { kind: 'retry', after: 0, reason: 'stopping: resume elsewhere' };
            },
          }),
          { concurrency: {} },
        );
        const id = await queue.send('crawl.run', { crawlId: 'crawl-1' });
        const signal = await started.promise;
        assert.equal(signal.aborted, false);
        assert.deepEqual(queue.running(), [{ jobId: id, name: 'crawl.run' }]);
        await queue.stop();
        assert.equal(signal.aborted, true);
        assert.deepEqual(queue.running(), []);
        assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'retrying');
      }),
    );

    for (const maxAttempts of [1, 2]) {
      it(
        `takes back a job a stopping queue released, never failing it for that (${maxAttempts} attempts allowed)`,
        withSubject(async (subject) => {
          let id = '';
          // Three processes in turn stop while running the job: each hands it back at a safe point.
          for (let stop = 0; stop < 3; stop++) {
            const settlements = new Settlements();
            const queue = await subject.open({ maxAttempts, ...settlements.observer });
            const started = deferred();
            await queue.work(
              handlers({
                'crawl.run': async (_payload, context) => {
                  started.resolve();
                  if (!context.signal.aborted) await once(context.signal, 'abort');
                  return { kind: 'released', reason: 'stopping: resume elsewhere' };
                },
              }),
              { concurrency: {} },
            );
            if (stop === 0) id = await queue.send('crawl.run', { crawlId: 'released-1' });
            await started.promise;
            await queue.stop();
            assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'released');
          }
          const settlements = new Settlements();
          const queue = await subject.open({ maxAttempts, ...settlements.observer });
          await queue.work(handlers({ 'crawl.run': async () => done }), { concurrency: {} });
          assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'done');
          await queue.stop();
        }),
      );
    }

    it(
      'stops only once the running handler has returned, and records its outcome',
      withSubject(async (subject) => {
        const settlements = new Settlements();
        const queue = await subject.open(settlements.observer);
        const started = deferred<AbortSignal>();
        const finish = deferred();
        let returned = false;
        await queue.work(
          handlers({
            'crawl.run': async (_payload, context) => {
              started.resolve(context.signal);
              await finish.promise;
              returned = true;
              return done;
            },
          }),
          { concurrency: {} },
        );
        const id = await queue.send('crawl.run', { crawlId: 'd1' });
        const signal = await started.promise;
        let stopped = false;
        const stopping = queue.stop().then(() => {
          stopped = true;
        });
        if (!signal.aborted) await once(signal, 'abort');
        for (let turn = 0; turn < 10; turn++) await setImmediate();
        assert.equal(stopped, false);
        finish.resolve();
        await stopping;
        assert.equal(returned, true);
        assert.equal((await settlements.waitFor((s) => s.jobId === id)).state, 'done');
      }),
    );

    it(
      'runs each job exactly once when two processes take jobs from one store',
      withSubject(async (subject) => {
        const first = new Settlements();
        const second = new Settlements();
        const runs = new Map<string, number>();
        const crawl: JobHandler<'crawl.run'> = async (payload) => {
          runs.set(payload.crawlId, (runs.get(payload.crawlId) ?? 0) + 1);
          return done;
        };
        const a = await subject.open(first.observer);
        const b = await subject.open(second.observer);
        await a.work(handlers({ 'crawl.run': crawl }), { concurrency: { 'crawl.run': 3 } });
        await b.work(handlers({ 'crawl.run': crawl }), { concurrency: { 'crawl.run': 3 } });
        const ids = await Promise.all(
          Array.from({ length: 24 }, (_, n) => (n % 2 === 0 ? a : b).send('crawl.run', { crawlId: `crawl-${n}` })),
        );
        for (const id of ids) {
          await Promise.race([first.waitFor((s) => s.jobId === id), second.waitFor((s) => s.jobId === id)]);
        }
        assert.equal(runs.size, 24);
        assert.deepEqual([...new Set(runs.values())], [1]);
        assert.equal(first.all.length + second.all.length, 24);
        assert.ok([...first.all, ...second.all].every((s) => s.state === 'done'));
      }),
    );
  });
}
