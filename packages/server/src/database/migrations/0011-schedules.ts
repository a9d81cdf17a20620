import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('audit_projects.id').onDelete('cascade'))
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('crawl', 'text', (c) => c.notNull())
    // Null while disabled. Claiming a run compares and sets it, so each run starts once across processes.
    .addColumn('next_run_at', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_run_outcome', 'text')
    // No foreign key: the schedule keeps naming its last crawl whatever becomes of it.
    .addColumn('last_run_crawl_id', 'text')
    .addColumn('last_run_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_project').on('schedules').columns(['project_id', 'id']).execute();
  // Every process asks for the due runs every tick.
  await db.schema.createIndex('schedules_due').on('schedules').columns(['next_run_at']).execute();
}
