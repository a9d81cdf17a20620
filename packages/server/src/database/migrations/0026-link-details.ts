import type { Kysely } from 'kysely';

/**
 * What a link says besides its target (issue #24, point 1): the anchor text (or an image's
 * alt), the element, the rel flags (REL_BITS in crawl/frontier-store.ts), and the target's URL
 * when the crawl keeps no row for it (nofollow, out of scope), so every link can be shown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('crawl_links').addColumn('anchor', 'text').execute();
  await db.schema.alterTable('crawl_links').addColumn('element', 'text').execute();
  await db.schema
    .alterTable('crawl_links')
    .addColumn('rel', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('crawl_links').addColumn('target_url', 'text').execute();
}
