import type { Kysely } from 'kysely';

/**
 * Every hreflang annotation of the crawled pages, with its code: `hreflang/conflicting-codes`
 * finds the URLs given two languages across the site, and pages whose own code contradicts
 * their `<html lang>`. Kept apart from `crawl_links`, which has one row per (source, kind,
 * target) and no self links, while a page may give one URL two codes, itself included.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crawl_hreflangs')
    .addColumn('crawl_id', 'text', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('target_key', 'text', (c) => c.notNull())
    // Trimmed and lower-cased: `en-gb`, `x-default`.
    .addColumn('code', 'text', (c) => c.notNull())
    // A page's annotations are replaced by source when it is recorded again.
    .addPrimaryKeyConstraint('crawl_hreflangs_pk', ['crawl_id', 'source_id', 'target_key', 'code'])
    .execute();
  // The report build asks, per batch of pages, who annotates them.
  await db.schema.createIndex('crawl_hreflangs_target').on('crawl_hreflangs').columns(['crawl_id', 'target_key']).execute();
}
