import type { Kysely } from 'kysely';

/**
 * The markup and visible text of each crawled HTML page, zstd-compressed (about 1/10 of the
 * markup): custom rule packs run over them at report time and in previews, and search indexes
 * the text. Kept apart from crawl_urls so the frontier's rows stay small.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crawl_page_bodies')
    .addColumn('crawl_id', 'text', (c) => c.notNull())
    .addColumn('url_id', 'text', (c) => c.notNull())
    // bytea: PostgreSQL's binary type; SQLite gives the name BLOB affinity.
    .addColumn('html', 'bytea', (c) => c.notNull())
    .addColumn('text', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('crawl_page_bodies_pk', ['crawl_id', 'url_id'])
    .execute();
}
