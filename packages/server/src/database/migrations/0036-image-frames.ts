import type { Kysely } from 'kysely';

/**
 * An image's frame count (issue #26, point 1): whether it is animated decides the format of
 * `format=auto` and the animation bound before its original is read. Null for images stored
 * before: delivery reads their count from the original's header (GIF and WebP only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('frames', 'integer').execute();
}
