import type { Kysely } from 'kysely';

/**
 * Whether a project's CDN answers honour client hints (issue #26, point 3): Sec-CH-DPR,
 * Sec-CH-Width, their legacy names and Save-Data. Off by default, so existing projects keep
 * answering every client alike (no `Vary` on hints, which would split shared caches).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('image_projects')
    .addColumn('client_hints', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
