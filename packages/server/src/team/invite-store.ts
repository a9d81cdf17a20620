import type { Invite, Page, Role } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { InviteTable } from '../database/schema.ts';

export function toInvite(row: InviteTable): Invite {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    invitedBy: row.invited_by,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

/**
 * Invites to workspaces. Pending means not accepted, not revoked and not expired; every
 * change of state is a conditional UPDATE on that, so two callers can never both win.
 */
export class InviteStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async insert(row: InviteTable): Promise<void> {
    await this.#database.db.insertInto('invites').values(row).execute();
  }

  /** Revokes the open invites for `email` (an invite sent again replaces the earlier one). */
  async revokeOpenFor(workspaceId: string, email: string, at: string): Promise<void> {
    await this.#database.db
      .updateTable('invites')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async listPending(workspaceId: string, at: string, page: { limit: number; cursor?: string }): Promise<Page<Invite>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('invites')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toInvite);
  }

  /** Revokes an invite not yet accepted or revoked; false when this workspace has none such. */
  async revoke(workspaceId: string, id: string, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('invites')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findByTokenHash(tokenHash: string): Promise<InviteTable | undefined> {
    return this.#database.db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /**
   * Marks a pending invite accepted; false when it no longer is pending. On PostgreSQL a
   * second accept waits on the first's row lock and then finds `accepted_at` set.
   */
  async claim(id: string, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('invites')
      .set({ accepted_at: at })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setAcceptedBy(id: string, userId: string): Promise<void> {
    await this.#database.db.updateTable('invites').set({ accepted_by: userId }).where('id', '=', id).execute();
  }
}
