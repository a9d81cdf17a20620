import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per project once its settings are saved; none means the defaults (disabled).
  await db.schema
    .createTable('alert_settings')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('audit_projects.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('crawl_failed', 'integer', (c) => c.notNull())
    .addColumn('score_below', 'integer')
    .addColumn('score_drop_by', 'integer')
    .addColumn('new_errors', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('alert_channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('audit_projects.id').onDelete('cascade'))
    // webhook | email
    .addColumn('type', 'text', (c) => c.notNull())
    // The webhook URL, or a JSON array of email addresses.
    .addColumn('target', 'text', (c) => c.notNull())
    // The webhook's HMAC key; kept as is, since signing needs it.
    .addColumn('secret', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_channels_project').on('alert_channels').columns(['project_id', 'position']).execute();

  await db.schema
    .createTable('alert_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('audit_projects.id').onDelete('cascade'))
    // No foreign key: the log outlives a channel removed from the settings.
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('channel_type', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    // Null for a test alert.
    .addColumn('crawl_id', 'text')
    .addColumn('report_id', 'text')
    .addColumn('test', 'integer', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    // The AlertEvent JSON, fixed when the alert was made so every retry sends the same body.
    .addColumn('payload', 'text', (c) => c.notNull())
    // pending | delivered | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  // One alert per crawl and channel, however often the crawl's job runs (NULLs, test alerts, never collide).
  await db.schema
    .createIndex('alert_deliveries_crawl_channel')
    .on('alert_deliveries')
    .columns(['crawl_id', 'channel_id'])
    .unique()
    .execute();
  await db.schema.createIndex('alert_deliveries_project').on('alert_deliveries').columns(['project_id', 'id']).execute();
}
