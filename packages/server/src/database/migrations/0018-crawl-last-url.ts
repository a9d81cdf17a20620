import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The URL a crawl fetched last, written with its page count, for the progress events.
  await db.schema.alterTable('crawls').addColumn('last_url', 'text').execute();
}
