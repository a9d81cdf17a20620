import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rule_packs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('pack', 'text', (c) => c.notNull())
    .addColumn('rule_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Names are unique in a workspace (409 rule_pack_name_taken); the index also serves the paged list.
  await db.schema.createIndex('rule_packs_workspace_name').on('rule_packs').columns(['workspace_id', 'name']).unique().execute();
  await db.schema.createIndex('rule_packs_workspace').on('rule_packs').columns(['workspace_id', 'id']).execute();
}
