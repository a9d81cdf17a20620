import { auditPage } from '../audit/page-audit.ts';
import type { Infrastructure } from '../infrastructure.ts';
import { buildReport } from '../reports/report-builder.ts';
import { crawlJobHandlers } from '../crawl/crawl-job-handlers.ts';
import { alertJobHandlers } from '../alerts/alert-job-handlers.ts';
import { searchJobHandlers } from '../search/search-job-handlers.ts';
import { validateHandlers, type JobHandlers } from './job-queue.ts';

/**
 * What job handlers are built from: the process's infrastructure, queue included (a handler may
 * send follow-up jobs). Both `loupe serve` (embedded queue) and `loupe worker` (pg-boss) have it.
 */
export type JobServices = Infrastructure;

/**
 * Builds the handler of every job. The domains that own the jobs (crawls, search, alerts)
 * provide it; serve and worker take it as a parameter and refuse to start on a missing handler.
 */
export type CreateJobHandlers = (services: JobServices) => JobHandlers | Promise<JobHandlers>;

/**
 * Puts each domain's handlers together (`combineJobHandlers(crawlJobHandlers(s), alertJobHandlers(s), …)`),
 * refusing a job handled twice and, as validateHandlers does, one handled by none (STYLE.md practice 7).
 */
export function combineJobHandlers(...parts: Partial<JobHandlers>[]): JobHandlers {
  const combined: Record<string, unknown> = {};
  const twice = new Set<string>();
  for (const part of parts) {
    for (const [name, handler] of Object.entries(part)) {
      if (name in combined) twice.add(name);
      combined[name] = handler;
    }
  }
  if (twice.size > 0) throw new Error(`Job handlers: more than one handler for ${[...twice].join(', ')}`);
  validateHandlers(combined);
  return combined;
}

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
