/**
 * Every background job Loupe runs, by name, with its payload (STYLE.md practice 7). A payload
 * carries ids only: the job reads the current state of what it names when it runs, so a retry
 * or a resumed crawl never works from a stale copy.
 */
export interface JobPayloads {
  /** Fetches and audits a site; minutes long, resumes from its persisted frontier. */
  'crawl.run': { crawlId: string };
  /** One attempt of one alert on one channel (a webhook POST or an email); a failed attempt queues the next. */
  'alert.deliver': { deliveryId: string };
  /** Builds one generation of a project's search index and switches queries to it; resumes after its last batch. */
  'search-index.build': { buildId: string };
  // A job joins this map together with its handler: start-up refuses a job without one.
}

export type JobName = keyof JobPayloads;

/** A record over JobName, so adding a job to JobPayloads without naming it here does not compile. */
const names: Record<JobName, true> = {
  'crawl.run': true,
  'alert.deliver': true,
  'search-index.build': true,
};

export const jobNames = Object.keys(names) as readonly JobName[];

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(names, name);
}
