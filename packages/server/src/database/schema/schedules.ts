export interface ScheduleTables {
  schedules: ScheduleTable;
}

/** A recurring crawl of an audit project; booleans 0/1, times ISO text. */
export interface ScheduleTable {
  id: string;
  workspace_id: string;
  project_id: string;
  cron: string;
  /** IANA time zone the expression is read in. */
  timezone: string;
  enabled: number;
  /** JSON: the crawl options of each run, over the project's defaults. */
  crawl: string;
  /** Null while disabled. */
  next_run_at: string | null;
  last_run_at: string | null;
  /** started | skipped-running | skipped-plan | failed */
  last_run_outcome: string | null;
  last_run_crawl_id: string | null;
  last_run_reason: string | null;
  created_at: string;
  updated_at: string;
}
