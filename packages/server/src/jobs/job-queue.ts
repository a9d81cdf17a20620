import { isJobName, type JobName, type JobPayloads, jobNames } from './job-types.ts';

/** What a handler answers: the expected outcomes are returned, never thrown (STYLE.md practice 7). */
export type JobOutcome =
  | { kind: 'done' }
  /** Run again no sooner than `after` ms from now, unless the job has used all its attempts. */
  | { kind: 'retry'; after: number; reason: string }
  /** Give up now, whatever attempts remain. */
  | { kind: 'failed'; reason: string }
  /**
   * Stopped at a safe point because the queue is stopping: back to the queue as it was, to run
   * again at once elsewhere or at the next start, this run not counted against its attempts.
   */
  | { kind: 'released'; reason: string };

export interface JobContext {
  jobId: string;
  /** 1 on the first run; a job taken back from a worker that died counts that run too. */
  attempt: number;
  /**
   * Aborts when the queue stops (finish or checkpoint, then return `released`, which hands the
   * job to the next worker) or when this worker no longer holds the job.
   */
  signal: AbortSignal;
  /** Renews this worker's hold on the job; the queue also renews it while the handler runs. */
  heartbeat(): Promise<void>;
}

export type JobHandler<N extends JobName> = (payload: JobPayloads[N], context: JobContext) => Promise<JobOutcome>;

export type JobHandlers = { [N in JobName]: JobHandler<N> };

export interface SendOptions {
  /** Not before this time. */
  runAfter?: Date;
  /**
   * At most one queued or running job of this name carries this key: sending another while
   * one does answers the existing job's id instead of queueing a second.
   */
  singletonKey?: string;
}

export interface WorkOptions {
  /** Handlers of one name running at once in this process; 1 for a name not listed. */
  concurrency: Partial<Record<JobName, number>>;
}

/** The job queue, one interface over the embedded queue and pg-boss (STYLE.md practice 4). */
export interface JobQueue {
  /** Queues a job and answers its id. */
  send<N extends JobName>(name: N, payload: JobPayloads[N], options?: SendOptions): Promise<string>;
  /** Starts taking jobs and running them with these handlers. */
  work(handlers: JobHandlers, options: WorkOptions): Promise<void>;
  /**
   * Stops taking jobs, aborts the running handlers' signals and waits for them to return, up to
   * a timeout; a job whose handler is still running then is taken again once its hold lapses.
   */
  stop(): Promise<void>;
  /** The jobs whose handlers run in this process now (a shutdown past its deadline names them). */
  running(): { jobId: string; name: JobName }[];
}

/** How a job ended one run, as the queue recorded it. */
export interface JobSettlement {
  jobId: string;
  name: JobName;
  attempt: number;
  outcome: JobOutcome;
  /**
   * `retrying`: queued again; `failed`: no more runs (it failed, or its attempts ran out);
   * `released`: handed back by a stopping queue, this run not counted;
   * `lost`: another worker took the job meanwhile, so this run's outcome was not recorded.
   */
  state: 'done' | 'retrying' | 'failed' | 'released' | 'lost';
}

/** What both queues report to whoever opened them (a logger; tests wait on settlements). */
export interface JobQueueObserver {
  onSettled?(settlement: JobSettlement): void;
  /** A problem in the queue itself (a database error while polling, a heartbeat that failed). */
  onError?(error: unknown): void;
}

/** Runs that the queue grants a job when nothing else is said. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Refuses to start with a job that has no handler, or a handler for a job that does not exist
 * (STYLE.md practice 7). TypeScript catches both in typed code; this catches maps built at run time.
 */
export function validateHandlers(handlers: Record<string, unknown>): asserts handlers is JobHandlers {
  const missing = jobNames.filter((name) => typeof handlers[name] !== 'function');
  const unknown = Object.keys(handlers).filter((name) => !isJobName(name));
  const problems = [
    ...(missing.length > 0 ? [`no handler for ${missing.join(', ')}`] : []),
    ...(unknown.length > 0 ? [`handlers for unknown jobs ${unknown.join(', ')}`] : []),
  ];
  if (problems.length > 0) throw new Error(`Job handlers: ${problems.join('; ')}`);
}

/**
 * Runs a job's handler, turning a throw into a retry: a throw is a bug or an outage, not an
 * outcome, and trying again later is the safe answer to both (backing off: 1 s, 2 s, 4 s… ≤ 5 min).
 */
export async function runHandler<N extends JobName>(
  handlers: JobHandlers,
  name: N,
  payload: JobPayloads[N],
  context: JobContext,
): Promise<JobOutcome> {
  const handler = handlers[name] as JobHandler<N>;
  try {
    return await handler(payload, context);
  } catch (error) {
    const after = Math.min(300_000, 1000 * 2 ** (context.attempt - 1));
    return { kind: 'retry', after, reason: `handler threw: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The concurrency of each job name, 1 unless set, refusing anything but a whole number ≥ 1. */
export function concurrencyOf(options: WorkOptions): Record<JobName, number> {
  const limits = {} as Record<JobName, number>;
  for (const name of jobNames) {
    const limit = options.concurrency[name] ?? 1;
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Job concurrency of ${name} must be a whole number ≥ 1, not ${limit}`);
    limits[name] = limit;
  }
  return limits;
}
