import type { Role } from '@loupe/contract';
import type { Database } from '../database/database.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: string;
}

/** Workspaces, users and memberships: who belongs where, with which role. */
export class WorkspaceStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async findWorkspace(id: string): Promise<WorkspaceRow | undefined> {
    return this.#database.db.selectFrom('workspaces').select(['id', 'name', 'plan']).where('id', '=', id).executeTakeFirst();
  }

  /** Every workspace, oldest first (for the operator's list; an instance holds few). */
  async listWorkspaces(): Promise<WorkspaceRow[]> {
    return this.#database.db.selectFrom('workspaces').select(['id', 'name', 'plan']).orderBy('created_at').orderBy('id').execute();
  }

  async role(workspaceId: string, userId: string): Promise<Role | undefined> {
    const row = await this.#database.db
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role as Role | undefined;
  }

  /** The user's oldest membership, for a session's calls that name no workspace. */
  async firstMembership(userId: string): Promise<{ workspaceId: string; role: Role } | undefined> {
    const row = await this.#database.db
      .selectFrom('memberships')
      .select(['workspace_id', 'role'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('workspace_id')
      .limit(1)
      .executeTakeFirst();
    return row && { workspaceId: row.workspace_id, role: row.role as Role };
  }

  async insertWorkspace(workspace: WorkspaceRow, at: string): Promise<void> {
    await this.#database.db
      .insertInto('workspaces')
      .values({ ...workspace, created_at: at, updated_at: at })
      .execute();
  }

  async insertUser(user: { id: string; email: string; name: string }, at: string): Promise<void> {
    await this.#database.db
      .insertInto('users')
      .values({ ...user, password_hash: null, created_at: at })
      .execute();
  }

  async findUserByEmail(email: string): Promise<{ id: string } | undefined> {
    return this.#database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  }

  async insertMembership(workspaceId: string, userId: string, role: Role, at: string): Promise<void> {
    await this.#database.db
      .insertInto('memberships')
      .values({ workspace_id: workspaceId, user_id: userId, role, created_at: at })
      .execute();
  }

  async setPlan(workspaceId: string, plan: string, at: string): Promise<void> {
    await this.#database.db.updateTable('workspaces').set({ plan, updated_at: at }).where('id', '=', workspaceId).execute();
  }

  /**
   * Serialises writers of one workspace inside a transaction: a no-op update takes the row
   * lock on PostgreSQL and the write lock on SQLite, so a count-then-insert cannot race.
   */
  async lockWorkspace(workspaceId: string): Promise<void> {
    await this.#database.db
      .updateTable('workspaces')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', workspaceId)
      .execute();
  }

  /** Claims the one-time first-start bootstrap; false when another process (or an earlier start) did. */
  async claimBootstrap(at: string): Promise<boolean> {
    try {
      await this.#database.db.insertInto('instance').values({ id: 1, bootstrapped_at: at }).execute();
      return true;
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
