import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per workspace and calendar month (UTC) whose allowance was given: the key makes a
  // month's top-up happen once however many processes try it.
  await db.schema
    .createTable('credit_allowances')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // YYYY-MM
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_allowances_pk', ['workspace_id', 'period'])
    .execute();
  await db.schema.createIndex('credit_allowances_period').on('credit_allowances').columns(['period', 'workspace_id']).execute();
}
