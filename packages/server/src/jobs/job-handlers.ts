import type { Infrastructure } from '../infrastructure.ts';
import { type JobHandlers, validateHandlers } from './job-queue.ts';

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
