import type { Kysely } from 'kysely';

/**
 * A rendered page's LCP, CLS and TBT beside its score (issue #28): the report build copies
 * them from the lab reading in crawl_page_renders, so the page index sorts and filters on
 * them with the same keyset paging as on any other column. Null for pages not rendered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('crawl_urls').addColumn('lab_lcp_ms', 'double precision').execute();
  await db.schema.alterTable('crawl_urls').addColumn('lab_cls', 'double precision').execute();
  await db.schema.alterTable('crawl_urls').addColumn('lab_tbt_ms', 'double precision').execute();
}
