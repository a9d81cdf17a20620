import type { ExpressionBuilder, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database } from '../database/database.ts';
import type { Schema } from '../database/schema.ts';
import type { JobName } from './job-types.ts';

export interface NewJob {
  id: string;
  name: JobName;
  payload: unknown;
  runAfter: Date;
  singletonKey: string | null;
}

/** A job this worker holds: `attempts` counts this run and is the token every later write checks. */
export interface ClaimedJob {
  id: string;
  name: JobName;
  payload: unknown;
  attempts: number;
}

type JobUpdate = UpdateQueryBuilder<Schema, 'jobs', 'jobs', UpdateResult>;

/** Candidates tried in one claim before giving way: each miss means another worker just took one. */
const CLAIM_TRIES = 5;

/**
 * The embedded queue's rows in the `jobs` table. Times are ISO 8601 UTC text, which orders as
 * the instants do. Every write to a running job names its `attempts`, so a worker whose hold
 * lapsed and was taken over cannot record anything over the new holder's run.
 */
export class JobStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** False when a live job of this name already carries the singleton key. */
  async insert(job: NewJob, now: Date): Promise<boolean> {
    const inserted = await this.#database.db
      .insertInto('jobs')
      .values({
        id: job.id,
        name: job.name,
        payload: JSON.stringify(job.payload),
        state: 'queued',
        run_after: job.runAfter.toISOString(),
        singleton_key: job.singletonKey,
        created_at: now.toISOString(),
      })
      // The partial unique index jobs_singleton is the only constraint a fresh UUID can meet.
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The queued or running job of this name with this key, if there is one. */
  async findLive(name: JobName, singletonKey: string): Promise<string | undefined> {
    const row = await this.#database.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', name)
      .where('singleton_key', '=', singletonKey)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Takes the job that has waited longest among these names: a queued job that is due, or a
   * running one whose holder stopped renewing (a worker that died: the crash-resume path).
   * Race-free on both engines without SKIP LOCKED: the UPDATE repeats the condition the SELECT
   * found the job by, with its `attempts`, so of two workers that picked the same job only one
   * changes a row (PostgreSQL re-checks the WHERE on the row it waited for; SQLite has one writer).
   */
  async claim(names: readonly JobName[], now: Date, leaseMs: number): Promise<ClaimedJob | undefined> {
    const nowText = now.toISOString();
    const claimable = (eb: ExpressionBuilder<Schema, 'jobs'>) =>
      eb.and([
        eb('name', 'in', names),
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', nowText)]),
          eb.and([eb('state', '=', 'running'), eb('locked_until', '<', nowText)]),
        ]),
      ]);
    for (let tries = 0; tries < CLAIM_TRIES; tries++) {
      const candidate = await this.#database.db
        .selectFrom('jobs')
        .select(['id', 'attempts'])
        .where(claimable)
        .orderBy('run_after')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const claimed = await this.#database.db
        .updateTable('jobs')
        .set((eb) => ({
          state: 'running',
          attempts: eb('attempts', '+', 1),
          locked_until: new Date(now.getTime() + leaseMs).toISOString(),
        }))
        .where('id', '=', candidate.id)
        .where('attempts', '=', candidate.attempts)
        .where(claimable)
        .returning(['id', 'name', 'payload', 'attempts'])
        .executeTakeFirst();
      if (claimed) {
        return { id: claimed.id, name: claimed.name as JobName, payload: JSON.parse(claimed.payload), attempts: claimed.attempts };
      }
    }
    return undefined;
  }

  /** Extends the hold; false when this run no longer holds the job. */
  async renew(job: ClaimedJob, until: Date): Promise<boolean> {
    const result = await this.#heldBy(
      this.#database.db.updateTable('jobs').set({ locked_until: until.toISOString() }),
      job,
    ).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Hands a job back untouched, as if it had not been taken: one taken while stopping, or one
   * whose handler stopped at a safe point for a shutdown.
   */
  async release(job: ClaimedJob): Promise<boolean> {
    const result = await this.#heldBy(
      this.#database.db.updateTable('jobs').set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1), locked_until: null })),
      job,
    ).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async requeue(job: ClaimedJob, runAfter: Date, reason: string): Promise<boolean> {
    const result = await this.#heldBy(
      this.#database.db
        .updateTable('jobs')
        .set({ state: 'queued', run_after: runAfter.toISOString(), locked_until: null, last_error: reason }),
      job,
    ).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async finish(job: ClaimedJob, state: 'done' | 'failed', reason: string | null, now: Date): Promise<boolean> {
    const result = await this.#heldBy(
      this.#database.db.updateTable('jobs').set({ state, locked_until: null, last_error: reason, finished_at: now.toISOString() }),
      job,
    ).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  #heldBy(query: JobUpdate, job: ClaimedJob): JobUpdate {
    return query.where('id', '=', job.id).where('attempts', '=', job.attempts).where('state', '=', 'running');
  }
}
