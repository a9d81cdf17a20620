import type { Kysely } from 'kysely';

/**
 * What a running crawl is doing (issue #23, point 2): its phase, done and total for pages and
 * link checks, recent rates and the phases it went through, as one JSON document the runner
 * rewrites (throttled) and the API, events, CLI and dashboard read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('crawls').addColumn('progress', 'text').execute();
}
