import type { Role, SessionUser, TeamListing } from '@loupe/contract';
import type { Database } from '../database/database.ts';

export interface StoredSession {
  id: string;
  userId: string;
  expiresAt: string;
}

/** Sessions, and the users and memberships a session answer shows. */
export class SessionStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async insert(session: StoredSession & { tokenHash: string; createdAt: string }): Promise<void> {
    await this.#database.db
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        token_hash: session.tokenHash,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  /** The live session with this token hash; an expired one is as good as absent. */
  async findLive(tokenHash: string, at: string): Promise<StoredSession | undefined> {
    const row = await this.#database.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return row && { id: row.id, userId: row.user_id, expiresAt: row.expires_at };
  }

  async extend(id: string, expiresAt: string): Promise<void> {
    await this.#database.db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async deleteByHash(tokenHash: string): Promise<void> {
    await this.#database.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Expired rows are never read again; sign-ins sweep them so the table stays small. */
  async deleteExpired(at: string): Promise<void> {
    await this.#database.db.deleteFrom('sessions').where('expires_at', '<=', at).execute();
  }

  async user(userId: string): Promise<SessionUser | undefined> {
    return this.#database.db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirst();
  }

  /** What a sign-in checks: the user with this email and their password hash (null before they set one). */
  async credentialsOf(email: string): Promise<{ id: string; passwordHash: string | null } | undefined> {
    const row = await this.#database.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirst();
    return row && { id: row.id, passwordHash: row.password_hash };
  }

  /** The user's workspaces, oldest membership first (the dashboard opens the first by default). */
  async workspacesOf(userId: string): Promise<TeamListing[]> {
    const rows = await this.#database.db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['workspaces.id', 'workspaces.name', 'workspaces.plan', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.created_at')
      .orderBy('workspaces.id')
      .execute();
    return rows.map((row) => ({ id: row.id, name: row.name, plan: row.plan, role: row.role as Role }));
  }
}
