import type { Kysely } from 'kysely';

/**
 * Every instance of a finding (issue #24, point 2): the ones past its three samples, as a JSON
 * array of strings; null when the samples hold them all, so the common finding costs nothing more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('crawl_findings').addColumn('more_instances', 'text').execute();
}
