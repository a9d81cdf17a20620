import type { Generated } from 'kysely';

export interface JobTables {
  jobs: JobTable;
}

export interface JobTable {
  id: string;
  name: string;
  payload: string;
  /** queued | running | done | failed */
  state: string;
  /** Runs started so far, this one included while running: also the token of the current hold. */
  attempts: Generated<number>;
  run_after: string;
  /** While running: the worker's hold (lease) on the job ends then unless renewed. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  /** Unique among the queued and running jobs of one name. */
  singleton_key: string | null;
  finished_at: string | null;
}
