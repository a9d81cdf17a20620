import type { Kysely } from 'kysely';

/**
 * Dashboard sign-in sessions (DESIGN.md §5). Only the SHA-256 of the cookie's token is
 * stored, as for API keys: a copy of the table signs nobody in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Moved forward when the dashboard is opened (sliding expiry, see sessions/session-service.ts).
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
}
