import type { Kysely } from 'kysely';

/**
 * Where a project fetches the images it does not hold yet (issue #26, point 2): a JSON object,
 * an https base URL or an S3-compatible bucket with its credentials; null when none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('image_projects').addColumn('origin', 'text').execute();
}
