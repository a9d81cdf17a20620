import { alertJobHandlers } from './alerts/alert-job-handlers.ts';
import { auditPage } from './audit/page-audit.ts';
import { crawlJobHandlers } from './crawl/crawl-job-handlers.ts';
import { combineJobHandlers, type CreateJobHandlers, type JobServices } from './jobs/job-handlers.ts';
import type { JobHandlers } from './jobs/job-queue.ts';
import { buildReport } from './reports/report-builder.ts';
import { searchJobHandlers } from './search/search-job-handlers.ts';

/**
 * Each domain's job handlers, as `(services) => Partial<JobHandlers>`: the crawler adds crawl.run,
 * search adds search-index.build, alerts add alert.deliver. A job none of them handles stops
 * whatever runs jobs from starting, and is named.
 */
const domainJobHandlers: readonly ((services: JobServices) => Partial<JobHandlers>)[] = [
  // The crawler knows no rules nor reports: the audit's page checks are what it does with
  // each page, and the report build is its last step.
  (services) =>
    crawlJobHandlers(services, {
      onPage: auditPage,
      buildReport: (crawl) => buildReport(services.database, crawl, services.config.ruleBudgets),
    }),
  alertJobHandlers,
  searchJobHandlers,
];

/** The handlers `loupe worker` and `loupe serve` run jobs with (startServer's default; tests pass their own). */
export const createJobHandlers: CreateJobHandlers = (services) =>
  combineJobHandlers(...domainJobHandlers.map((handlersOf) => handlersOf(services)));
