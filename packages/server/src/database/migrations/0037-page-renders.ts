import type { Kysely } from 'kysely';

/**
 * What the browser made of each page of a rendering crawl (issue #28): the rendered markup
 * (zstd, for rule packs' `dom: "rendered"`), the lab reading as JSON (metrics, transfers,
 * whether the page settled, its error) and a bounded JPEG of the first screen. Kept apart from
 * crawl_page_bodies, which holds the raw markup every crawl keeps, and from crawl_urls, whose
 * rows stay small; accessibility violations are findings like any other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crawl_page_renders')
    .addColumn('crawl_id', 'text', (c) => c.notNull())
    .addColumn('url_id', 'text', (c) => c.notNull())
    .addColumn('html', 'bytea')
    .addColumn('lab', 'text', (c) => c.notNull())
    .addColumn('screenshot', 'bytea')
    .addPrimaryKeyConstraint('crawl_page_renders_pk', ['crawl_id', 'url_id'])
    .execute();
}
