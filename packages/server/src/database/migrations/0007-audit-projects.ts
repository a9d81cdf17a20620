import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('site_url', 'text', (c) => c.notNull())
    .addColumn('crawl_defaults', 'text', (c) => c.notNull())
    .addColumn('rule_pack_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_projects_workspace').on('audit_projects').columns(['workspace_id', 'id']).execute();
  // A project's crawls, newest first, and "is one running?" for schedules.
  await db.schema.createIndex('crawls_project').on('crawls').columns(['project_id', 'id']).execute();
}
