import type { Kysely } from 'kysely';

/**
 * A project's default for the transform parameter `enlarge` (issue #26, point 4): `allow` or
 * `never`. Existing projects get `allow`, which is what they did before the setting existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('image_projects')
    .addColumn('enlarge', 'text', (c) => c.notNull().defaultTo('allow'))
    .execute();
}
