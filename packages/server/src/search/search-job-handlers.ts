import type { Logger } from 'pino';
import type { JobServices } from '../jobs/job-handlers.ts';
import type { JobHandler, JobHandlers } from '../jobs/job-queue.ts';
import { SearchIndexBuilder } from './search-index-builder.ts';

/**
 * One build to its end. A shutdown hands it back to the queue to resume; an error fails the
 * build at once (the previous index keeps answering, and asking again starts a new build)
 * rather than keeping the project's one build slot while retries back off.
 */
export function searchBuildHandler(builder: SearchIndexBuilder, log: Logger): JobHandler<'search-index.build'> {
  return async ({ buildId }, context) => {
    try {
      const outcome = await builder.run(buildId, context.signal);
      if (outcome === 'stopped') return { kind: 'released', reason: 'stopped by shutdown; resumes' };
      return { kind: 'done' };
    } catch (error) {
      log.warn({ err: error, buildId }, 'search index build failed');
      await builder.fail(buildId, 'The index could not be built; the previous index, if any, still answers.');
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  };
}

export function searchJobHandlers(services: JobServices): Pick<JobHandlers, 'search-index.build'> {
  const builder = new SearchIndexBuilder(services.database, { wordLists: { threshold: services.config.searchListMinPages } });
  return { 'search-index.build': searchBuildHandler(builder, services.log) };
}
