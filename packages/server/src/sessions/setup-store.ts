import type { Database } from '../database/database.ts';

/** What the first run reads and changes: whether anyone has a password, and the first owner. */
export class SetupStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async anyoneHasPassword(): Promise<boolean> {
    const row = await this.#database.db.selectFrom('users').select('id').where('password_hash', 'is not', null).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** The owner of the oldest workspace (the bootstrap's "Default" and its owner). */
  async firstOwner(): Promise<{ userId: string; workspaceId: string } | undefined> {
    const row = await this.#database.db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['memberships.user_id', 'memberships.workspace_id'])
      .where('memberships.role', '=', 'owner')
      .orderBy('workspaces.created_at')
      .orderBy('workspaces.id')
      .orderBy('memberships.created_at')
      .limit(1)
      .executeTakeFirst();
    return row && { userId: row.user_id, workspaceId: row.workspace_id };
  }

  async emailTakenByOther(email: string, userId: string): Promise<boolean> {
    const row = await this.#database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .where('id', '!=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Gives the owner their email, name and password, only while they have no password: of two
   * first runs at once, the second finds the row changed (PostgreSQL re-checks the condition
   * after the first commits; SQLite runs one write at a time) and gets false.
   */
  async claimOwner(userId: string, owner: { email: string; name: string; passwordHash: string }): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('users')
      .set({ email: owner.email, name: owner.name, password_hash: owner.passwordHash })
      .where('id', '=', userId)
      .where('password_hash', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async renameWorkspace(workspaceId: string, name: string, at: string): Promise<void> {
    await this.#database.db.updateTable('workspaces').set({ name, updated_at: at }).where('id', '=', workspaceId).execute();
  }
}
