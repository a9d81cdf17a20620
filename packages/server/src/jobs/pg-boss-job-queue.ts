import { type JobResult, type JobWithMetadata, PgBoss } from 'pg-boss';
import { newId } from '../ids.ts';
import {
  concurrencyOf,
  DEFAULT_MAX_ATTEMPTS,
  type JobHandlers,
  type JobOutcome,
  type JobQueue,
  type JobQueueObserver,
  type JobSettlement,
  runHandler,
  type SendOptions,
  validateHandlers,
  type WorkOptions,
} from './job-queue.ts';
import { type JobName, type JobPayloads, jobNames } from './job-types.ts';

export interface PgBossJobQueueOptions extends JobQueueObserver {
  connectionString: string;
  /** pg-boss's own schema (its tables, functions and queues), created on start if missing. */
  schema: string;
  /** Runs a job gets, counting one taken back from a worker that died. */
  maxAttempts?: number;
  /** A worker that has not heartbeaten for this long loses its job (pg-boss heartbeatSeconds, ≥ 10). */
  leaseSeconds?: number;
  /** How often a worker looks for jobs when no notification came (≥ 0.5). */
  pollIntervalSeconds?: number;
  /** How often the supervisor looks for jobs whose worker stopped heartbeating. */
  superviseIntervalSeconds?: number;
  /**
   * The delay pg-boss puts on a failed job, kept only until its own run time is set: a job the
   * supervisor takes back from a dead worker waits this long too.
   */
  retryParkSeconds?: number;
  /** How long stop() waits for running handlers. */
  stopTimeoutMs?: number;
  /** Connections in pg-boss's pool (one more listens for notifications). */
  poolSize?: number;
}

/** A hung handler's limit, far beyond the longest crawl; a dead worker is noticed by its heartbeat. */
const EXPIRE_SECONDS = 12 * 60 * 60;

/** What pg-boss's settle calls answer at run time (its typings declare an empty object). */
interface SettleResponse {
  affected?: number;
}

/**
 * The job queue on pg-boss (DESIGN.md §2, scale-out): on PostgreSQL, any number of `loupe
 * worker` processes take jobs, each holding a job by heartbeat; pg-boss's supervisor hands a
 * job whose worker stopped heartbeating to the next one (the crash-resume path).
 *
 * Each job name is an `exclusive` queue: at most one job per singleton key is queued or active.
 * A job sent without a key gets one of its own, since exclusive treats "no key" as one shared key.
 * Open with `PgBossJobQueue.open()`, which starts pg-boss and creates the queues.
 */
export class PgBossJobQueue implements JobQueue {
  readonly #boss: PgBoss;
  readonly #pollIntervalSeconds: number;
  readonly #stopTimeoutMs: number;
  readonly #observer: JobQueueObserver;
  /** Each running handler's stop, and its job. */
  readonly #running = new Map<AbortController, { jobId: string; name: JobName }>();
  readonly #wakeTimers = new Set<NodeJS.Timeout>();
  readonly #workerIds = new Map<JobName, string>();
  #handlers: JobHandlers | undefined;
  #stopping: Promise<void> | undefined;

  static async open(options: PgBossJobQueueOptions): Promise<PgBossJobQueue> {
    const pollIntervalSeconds = options.pollIntervalSeconds ?? 2;
    const superviseIntervalSeconds = options.superviseIntervalSeconds ?? 15;
    const boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema,
      max: options.poolSize ?? 4,
      application_name: 'loupe-jobs',
      // Wakes workers in every process the moment a job is sent; polling stays as the floor.
      useListenNotify: true,
      superviseIntervalSeconds,
      monitorIntervalSeconds: superviseIntervalSeconds,
    });
    const queue = new PgBossJobQueue(boss, options, pollIntervalSeconds);
    boss.on('error', (error) => queue.#reportError(error));
    await boss.start();
    try {
      const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      const settings = {
        retryLimit: maxAttempts - 1,
        retryDelay: options.retryParkSeconds ?? 5,
        heartbeatSeconds: options.leaseSeconds ?? 30,
        expireInSeconds: EXPIRE_SECONDS,
        notify: true,
      };
      for (const name of jobNames) {
        await boss.createQueue(name, { policy: 'exclusive', ...settings });
        // createQueue leaves an existing queue as it was: this brings its settings to ours.
        await boss.updateQueue(name, settings);
      }
    } catch (error) {
      await boss.stop({ graceful: false });
      throw error;
    }
    return queue;
  }

  constructor(boss: PgBoss, options: PgBossJobQueueOptions, pollIntervalSeconds: number) {
    this.#boss = boss;
    this.#pollIntervalSeconds = pollIntervalSeconds;
    this.#stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
    this.#observer = options;
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}): Promise<string> {
    for (let tries = 0; tries < 3; tries++) {
      const id = newId();
      const singletonKey = options.singletonKey ?? `job:${id}`;
      const sent = await this.#boss.send(name, payload, { id, singletonKey, startAfter: options.runAfter });
      if (sent) {
        if (options.runAfter) this.#wakeAt(name, options.runAfter);
        return sent;
      }
      // Refused: a live job holds the key. Answer it, unless it finished in between.
      const live = (await this.#boss.findJobs(name, { key: singletonKey })).find((job) =>
        ['created', 'retry', 'active'].includes(job.state),
      );
      if (live) return live.id;
    }
    throw new Error(`Could not queue ${name} with singleton key ${options.singletonKey}: its live job kept changing`);
  }

  async work(handlers: JobHandlers, options: WorkOptions): Promise<void> {
    validateHandlers(handlers);
    if (this.#handlers) throw new Error('This job queue is already working');
    if (this.#stopping) throw new Error('This job queue is stopped');
    const limits = concurrencyOf(options);
    this.#handlers = handlers;
    for (const name of jobNames) {
      const workerId = await this.#boss.work(
        name,
        {
          localConcurrency: limits[name],
          batchSize: 1,
          // For the job's own retry limit, fixed when it was sent.
          includeMetadata: true,
          pollingIntervalSeconds: this.#pollIntervalSeconds,
          notifyPollingIntervalSeconds: this.#pollIntervalSeconds,
          // Lets a handler's `failed` end the job at once (deadletter), whatever retries remain.
          perJobResults: true,
        },
        async ([job]: JobWithMetadata<JobPayloads[typeof name]>[]) => [await this.#run(name, job)],
      );
      this.#workerIds.set(name, workerId);
    }
  }

  running(): { jobId: string; name: JobName }[] {
    return [...this.#running.values()];
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    for (const timer of this.#wakeTimers) clearTimeout(timer);
    this.#wakeTimers.clear();
    for (const controller of this.#running.keys()) controller.abort(new Error('the job queue is stopping'));
    await this.#boss.stop({ graceful: true, timeout: this.#stopTimeoutMs });
  }

  async #run<N extends JobName>(name: N, job: JobWithMetadata<JobPayloads[N]>): Promise<JobResult> {
    const attempt = job.retryCount + 1;
    // The attempt this worker fetched: every settle below changes nothing once it was taken over.
    const fence = { id: job.id, retryCount: job.retryCount };
    const stopping = new AbortController();
    this.#running.set(stopping, { jobId: job.id, name });
    let outcome: JobOutcome;
    try {
      outcome = await runHandler(this.#handlers as JobHandlers, name, job.data, {
        jobId: job.id,
        attempt,
        // job.signal aborts when pg-boss's heartbeat finds the job no longer held by this worker.
        signal: AbortSignal.any([job.signal, stopping.signal]),
        heartbeat: async () => {
          await this.#boss.touch(name, fence);
        },
      });
    } finally {
      this.#running.delete(stopping);
    }
    const settled = (state: JobSettlement['state']) => this.#observer.onSettled?.({ jobId: job.id, name, attempt, outcome, state });
    const landed = (response: SettleResponse) => (response.affected ?? 0) > 0;

    if (outcome.kind === 'done') {
      settled(landed(await this.#boss.complete(name, fence)) ? 'done' : 'lost');
      // Settled above, so the observer hears of it after it landed; pg-boss's own settle of the answer is a no-op.
      return { id: job.id, status: 'completed' };
    }
    if (outcome.kind === 'released') {
      settled((await this.#release(name, job, fence, outcome.reason)) ? 'released' : 'lost');
      // Already settled above: pg-boss's own settle of this answer finds the job no longer active.
      return { id: job.id, status: 'failed' };
    }
    if (outcome.kind === 'retry' && job.retryCount < job.retryLimit) {
      const runAfter = new Date(Date.now() + Math.max(0, outcome.after));
      // fail() queues the retry after the park delay; the update then sets the time the handler asked for.
      if (!landed(await this.#boss.fail(name, fence, { reason: outcome.reason }))) {
        settled('lost');
        return { id: job.id, status: 'failed' };
      }
      await this.#boss.update(name, undefined, { id: job.id, startAfter: runAfter });
      this.#wakeAt(name, runAfter);
      settled('retrying');
      return { id: job.id, status: 'failed' };
    }
    // pg-boss fails a job at once, bypassing its remaining retries, when it is dead-lettered.
    settled('failed');
    return { id: job.id, status: 'deadletter', output: { reason: outcome.reason } };
  }

  /**
   * Hands a job back for its next claim, this run not counted. pg-boss has no fenced hand-back
   * (restore() would take a job another worker has claimed since): fail() queues the job again,
   * and one more allowed retry makes up for the attempt the next claim counts. On its last
   * attempt fail() ends the job, and retry() brings it back with that one more retry.
   */
  async #release(name: JobName, job: JobWithMetadata<unknown>, fence: { id: string; retryCount: number }, reason: string) {
    const failed = (await this.#boss.fail(name, fence, { reason })) as SettleResponse;
    if ((failed.affected ?? 0) === 0) return false;
    if (job.retryCount >= job.retryLimit) await this.#boss.retry(name, job.id);
    else await this.#boss.update(name, undefined, { id: job.id, startAfter: new Date(), retryLimit: job.retryLimit + 1 });
    return true;
  }

  /** Wakes this process's worker for a job it knows comes due before the next poll. */
  #wakeAt(name: JobName, when: Date): void {
    const workerId = this.#workerIds.get(name);
    if (!workerId || this.#stopping) return;
    const delay = Math.max(0, when.getTime() - Date.now());
    if (delay >= this.#pollIntervalSeconds * 1000) return;
    const timer = setTimeout(() => {
      this.#wakeTimers.delete(timer);
      this.#boss.notifyWorker(workerId);
    }, delay);
    this.#wakeTimers.add(timer);
  }

  #reportError(error: unknown): void {
    if (this.#observer.onError) this.#observer.onError(error);
    else process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'LoupeJobQueue');
  }
}
