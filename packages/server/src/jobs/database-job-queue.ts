import type { Database } from '../database/database.ts';
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
import { type ClaimedJob, JobStore } from './job-store.ts';
import { type JobName, type JobPayloads, jobNames } from './job-types.ts';

export interface DatabaseJobQueueOptions extends JobQueueObserver {
  /** How long a worker holds a job without renewing; renewed every third of it while the handler runs. */
  leaseMs?: number;
  /** How often to look for jobs this process was not told about (sent elsewhere, come due). */
  pollIntervalMs?: number;
  /** Runs a job gets, counting one taken back from a worker that died. */
  maxAttempts?: number;
  /** How long stop() waits for running handlers. */
  stopTimeoutMs?: number;
}

interface RunningJob {
  name: JobName;
  controller: AbortController;
  renewal: NodeJS.Timeout | undefined;
  /** stop() gave up waiting: this run records nothing and its hold is left to lapse. */
  abandoned: boolean;
  finished: Promise<void>;
}

/**
 * The embedded queue (DESIGN.md §2): jobs live in the `jobs` table of the service's own
 * database and run in the process that called work(). A worker holds a job for a lease that it
 * renews while the handler runs; a job whose lease lapsed is taken again, which is how a crawl
 * resumes after its process was killed. Polls every `pollIntervalMs`, and wakes at once for
 * jobs sent, retried or freed in this process.
 */
export class DatabaseJobQueue implements JobQueue {
  readonly #store: JobStore;
  readonly #leaseMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxAttempts: number;
  readonly #stopTimeoutMs: number;
  readonly #observer: JobQueueObserver;
  readonly #running = new Map<string, RunningJob>();
  readonly #wakeTimers = new Set<NodeJS.Timeout>();
  #handlers: JobHandlers | undefined;
  #limits: Record<JobName, number> | undefined;
  #loop: Promise<void> | undefined;
  #stopping = false;
  #stopped: Promise<void> | undefined;
  #wakeRequested = false;
  #wakeSleeper: (() => void) | undefined;

  constructor(database: Database, options: DatabaseJobQueueOptions = {}) {
    this.#store = new JobStore(database);
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.#stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
    this.#observer = options;
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}): Promise<string> {
    const runAfter = options.runAfter ?? new Date();
    const singletonKey = options.singletonKey ?? null;
    // A keyed job can finish between a refused insert and the look-up: then the insert is tried again.
    for (let tries = 0; tries < 3; tries++) {
      const id = newId();
      if (await this.#store.insert({ id, name, payload, runAfter, singletonKey }, new Date())) {
        this.#wakeAt(runAfter);
        return id;
      }
      const live = await this.#store.findLive(name, singletonKey as string);
      if (live) return live;
    }
    throw new Error(`Could not queue ${name} with singleton key ${singletonKey}: its live job kept changing`);
  }

  async work(handlers: JobHandlers, options: WorkOptions): Promise<void> {
    validateHandlers(handlers);
    if (this.#loop) throw new Error('This job queue is already working');
    if (this.#stopping) throw new Error('This job queue is stopped');
    this.#limits = concurrencyOf(options);
    this.#handlers = handlers;
    this.#loop = this.#consume();
  }

  running(): { jobId: string; name: JobName }[] {
    return [...this.#running].map(([jobId, job]) => ({ jobId, name: job.name }));
  }

  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#wakeTimers) clearTimeout(timer);
    this.#wakeTimers.clear();
    this.#wake();
    for (const job of this.#running.values()) job.controller.abort(new Error('the job queue is stopping'));
    await this.#loop;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#stopTimeoutMs);
    });
    await Promise.race([Promise.all([...this.#running.values()].map((job) => job.finished)), timeout]);
    clearTimeout(timer);
    for (const job of this.#running.values()) {
      job.abandoned = true;
      clearInterval(job.renewal);
    }
  }

  async #consume(): Promise<void> {
    while (!this.#stopping) {
      const names = this.#namesWithRoom();
      let claimed: ClaimedJob | undefined;
      if (names.length > 0) {
        try {
          claimed = await this.#store.claim(names, new Date(), this.#leaseMs);
        } catch (error) {
          this.#reportError(error);
        }
      }
      if (claimed && this.#stopping) {
        await this.#store.release(claimed).catch((error: unknown) => this.#reportError(error));
      } else if (claimed) {
        this.#start(claimed);
        continue;
      }
      await this.#sleep();
    }
  }

  #namesWithRoom(): JobName[] {
    const running = new Map<JobName, number>();
    for (const job of this.#running.values()) running.set(job.name, (running.get(job.name) ?? 0) + 1);
    const limits = this.#limits as Record<JobName, number>;
    return jobNames.filter((name) => (running.get(name) ?? 0) < limits[name]);
  }

  #start(job: ClaimedJob): void {
    const entry: RunningJob = {
      name: job.name,
      controller: new AbortController(),
      renewal: undefined,
      abandoned: false,
      finished: Promise.resolve(),
    };
    this.#running.set(job.id, entry);
    entry.finished = this.#run(job, entry)
      .catch((error: unknown) => this.#reportError(error))
      .finally(() => {
        this.#running.delete(job.id);
        this.#wake();
      });
  }

  async #run(job: ClaimedJob, entry: RunningJob): Promise<void> {
    if (job.attempts > this.#maxAttempts) {
      // Taken back from workers that died holding it, once too often: a job that kills its process.
      const reason = `its worker stopped renewing its hold ${job.attempts - 1} times`;
      await this.#settle(job, { kind: 'failed', reason });
      return;
    }
    const renew = async () => {
      if (entry.abandoned) return;
      const held = await this.#store.renew(job, new Date(Date.now() + this.#leaseMs));
      if (!held) entry.controller.abort(new Error('another worker took this job over'));
    };
    entry.renewal = setInterval(() => renew().catch((error: unknown) => this.#reportError(error)), this.#leaseMs / 3);
    let outcome: JobOutcome;
    try {
      outcome = await runHandler(this.#handlers as JobHandlers, job.name, job.payload as JobPayloads[JobName], {
        jobId: job.id,
        attempt: job.attempts,
        signal: entry.controller.signal,
        heartbeat: renew,
      });
    } finally {
      clearInterval(entry.renewal);
    }
    if (!entry.abandoned) await this.#settle(job, outcome);
  }

  async #settle(job: ClaimedJob, outcome: JobOutcome): Promise<void> {
    const now = new Date();
    let state: JobSettlement['state'];
    if (outcome.kind === 'done') {
      state = (await this.#store.finish(job, 'done', null, now)) ? 'done' : 'lost';
    } else if (outcome.kind === 'released') {
      state = (await this.#store.release(job)) ? 'released' : 'lost';
      this.#wake();
    } else if (outcome.kind === 'retry' && job.attempts < this.#maxAttempts) {
      const runAfter = new Date(now.getTime() + Math.max(0, outcome.after));
      state = (await this.#store.requeue(job, runAfter, outcome.reason)) ? 'retrying' : 'lost';
      if (state === 'retrying') this.#wakeAt(runAfter);
    } else {
      state = (await this.#store.finish(job, 'failed', outcome.reason, now)) ? 'failed' : 'lost';
    }
    this.#observer.onSettled?.({ jobId: job.id, name: job.name, attempt: job.attempts, outcome, state });
  }

  /** Wakes the loop when a job this process knows of comes due sooner than the next poll. */
  #wakeAt(when: Date): void {
    if (!this.#loop || this.#stopping) return;
    const delay = when.getTime() - Date.now();
    if (delay <= 0) return this.#wake();
    if (delay >= this.#pollIntervalMs) return;
    const timer = setTimeout(() => {
      this.#wakeTimers.delete(timer);
      this.#wake();
    }, delay);
    this.#wakeTimers.add(timer);
  }

  #wake(): void {
    this.#wakeRequested = true;
    this.#wakeSleeper?.();
  }

  /** Waits a poll interval, or less when woken; a wake-up that came while busy is not lost. */
  async #sleep(): Promise<void> {
    if (!this.#wakeRequested) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#wakeSleeper = undefined;
          resolve();
        };
        const timer = setTimeout(done, this.#pollIntervalMs);
        this.#wakeSleeper = done;
      });
    }
    this.#wakeRequested = false;
  }

  #reportError(error: unknown): void {
    if (this.#observer.onError) this.#observer.onError(error);
    else process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'LoupeJobQueue');
  }
}
