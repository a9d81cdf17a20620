import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The page's 64-bit SimHash (16 hex digits) when it has enough words: `content/near-duplicate`.
  await db.schema.alterTable('crawl_urls').addColumn('simhash', 'text').execute();
}
