import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // JSON object of workspace settings (time zone, notification email); absent keys take defaults.
  await db.schema
    .alterTable('workspaces')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    // SHA-256 of the token in the link; the token itself is shown once and never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invites_workspace').on('invites').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('invites_workspace_email').on('invites').columns(['workspace_id', 'email']).execute();
}
