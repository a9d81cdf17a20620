import { alertJobHandlers } from './alerts/alert-job-handlers.ts';
import { AlertTrigger } from './alerts/alert-trigger.ts';
import { auditPage } from './audit/page-audit.ts';
import { crawlJobHandlers } from './crawl/crawl-job-handlers.ts';
import { type CreateJobHandlers, combineJobHandlers, type JobServices } from './jobs/job-handlers.ts';
import type { JobHandlers } from './jobs/job-queue.ts';
import { buildReport } from './reports/report-builder.ts';
import { searchJobHandlers } from './search/search-job-handlers.ts';

/**
 * Each domain's job handlers, as `(services) => Partial<JobHandlers>`: the crawler adds crawl.run,
 * search adds search-index.build, alerts add alert.deliver. A job none of them handles stops
 * whatever runs jobs from starting, and is named.
 */
const domainJobHandlers: readonly ((services: JobServices) => Partial<JobHandlers>)[] = [
  // The crawler knows no rules, reports nor alerts: the audit's page checks are what it does
  // with each page, the report build is its last step, and alerts (once per crawl and channel) follow.
  (services) => {
    const alerts = new AlertTrigger(services.database, services.jobs);
    return crawlJobHandlers(services, {
      onPage: auditPage,
      buildReport: (crawl) => buildReport(services.database, crawl, services.config.ruleBudgets),
      afterCrawl: (crawlId) => alerts.crawlEnded(crawlId),
    });
  },
  alertJobHandlers,
  searchJobHandlers,
];

/** The handlers `loupe worker` and `loupe serve` run jobs with (startServer's default; tests pass their own). */
export const createJobHandlers: CreateJobHandlers = (services) =>
  combineJobHandlers(...domainJobHandlers.map((handlersOf) => handlersOf(services)));
