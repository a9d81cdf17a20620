import type { Database } from '../database/database.ts';
import type { PasswordResetTable } from '../database/schema.ts';

/** What a completed reset took away from the account. */
export interface EndedAccess {
  endedSessions: number;
  revokedKeys: number;
}

/** Password reset links, and what completing one changes on the account. */
export class PasswordResetStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async userByEmail(email: string): Promise<{ id: string; email: string; hasPassword: boolean } | undefined> {
    const row = await this.#database.db
      .selectFrom('users')
      .select(['id', 'email', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
    return row && { id: row.id, email: row.email, hasPassword: row.password_hash !== null };
  }

  async emailOf(userId: string): Promise<string | undefined> {
    const row = await this.#database.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    return row?.email;
  }

  /** Stores a new link and drops the account's other unused ones: only the latest link mailed works. */
  async replace(row: PasswordResetTable): Promise<void> {
    await this.#database.db.deleteFrom('password_resets').where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
    await this.#database.db.insertInto('password_resets').values(row).execute();
  }

  async findByTokenHash(tokenHash: string): Promise<PasswordResetTable | undefined> {
    return this.#database.db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /**
   * Uses the link up; false when it is no longer usable (used, replaced or expired meanwhile).
   * A conditional UPDATE, so of two completions of one link only one wins.
   */
  async claim(id: string, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('password_resets')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Sets the new password and takes away every way in the account had: its sessions, its API
   * keys in every workspace, and its other reset links.
   */
  async setPasswordEndingAccess(userId: string, passwordHash: string): Promise<EndedAccess> {
    const db = this.#database.db;
    await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    const sessions = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    const keys = await db.deleteFrom('api_keys').where('user_id', '=', userId).executeTakeFirst();
    await db.deleteFrom('password_resets').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    return { endedSessions: Number(sessions.numDeletedRows), revokedKeys: Number(keys.numDeletedRows) };
  }

  /** Requests sweep links that ran out before `cutoff`, so the table stays small. */
  async deleteExpiredBefore(cutoff: string): Promise<void> {
    await this.#database.db.deleteFrom('password_resets').where('expires_at', '<=', cutoff).execute();
  }
}
