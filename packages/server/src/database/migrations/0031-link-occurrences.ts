import type { Kysely } from 'kysely';

/**
 * How often a page names a target, and the anchors it gives it (issue #24, point 1): a page
 * linking one URL from its menu, body and footer kept one row and lost the other anchors. The
 * row stays one per (source, kind, target); the first anchor stays in `anchor`, the other
 * distinct ones go to `more_anchors` (a JSON array, null when none), so the common case (one
 * occurrence, one anchor) costs about a byte a column on SQLite. smallint: a page keeps at most
 * 5,000 links (PAGE_FACT_CAPS), and PostgreSQL aligns it on 2 bytes, not 4.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('crawl_links')
    .addColumn('occurrences', 'smallint', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('crawl_links').addColumn('more_anchors', 'text').execute();
}
