import type { Config } from '../config.ts';
import type { CreateJobHandlers, JobServices } from './job-handlers.ts';
import { type JobQueue, validateHandlers, type WorkOptions } from './job-queue.ts';

/**
 * Handlers of each job running at once in one process. Crawls are long and mostly wait on the
 * network; an index build is CPU and database work; alert deliveries are short requests.
 */
export function jobConcurrency(config: Pick<Config, 'crawlConcurrency'>): WorkOptions {
  // Alerts mostly wait on a receiver (up to its timeout), so a slow one should not hold up the rest.
  return { concurrency: { 'crawl.run': config.crawlConcurrency, 'alert.deliver': 4, 'search-index.build': 1 } };
}

/** Builds the handlers, refusing to start with any missing, and starts taking jobs. */
export async function startJobConsumers(queue: JobQueue, services: JobServices, createJobHandlers: CreateJobHandlers): Promise<void> {
  const handlers = await createJobHandlers(services);
  validateHandlers(handlers);
  await queue.work(handlers, jobConcurrency(services.config));
}
