import type { Kysely } from 'kysely';

/**
 * A project's choice to keep EXIF, XMP and IPTC in what the CDN serves (issue #26, point 6).
 * Off by default: photos carry GPS positions, and outputs strip them unless a project opts in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('image_projects')
    .addColumn('keep_metadata', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
