import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('image_projects')
    .addColumn('signing_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('image_projects').addColumn('signing_secret', 'text').execute();
  await db.schema.alterTable('image_projects').addColumn('previous_signing_secret', 'text').execute();
  await db.schema.alterTable('image_projects').addColumn('previous_secret_expires_at', 'text').execute();

  // Whether the original has an alpha channel: decides PNG over JPEG when a client accepts neither WebP nor AVIF.
  await db.schema
    .alterTable('images')
    .addColumn('has_alpha', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // qualityMode's search result per original, format and mode: found once, then reused.
  await db.schema
    .createTable('quality_choices')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('quality', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('quality_choices_pk', ['blob_key', 'format', 'mode'])
    .execute();

  // The two-step upload: a slot with a secret URL, filled by PUT, turned into an image by confirm.
  await db.schema
    .createTable('pending_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('image_projects.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('received_bytes', 'bigint')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cdn_usage_daily')
    .addColumn('project_id', 'text', (c) => c.notNull().references('image_projects.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_served', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transforms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cache_hits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('cdn_usage_daily_pk', ['project_id', 'day'])
    .execute();
}
