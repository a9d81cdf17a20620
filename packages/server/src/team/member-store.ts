import type { Member, Page, Role, TeamListing } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';

interface PageRequest {
  limit: number;
  cursor?: string;
}

/**
 * Memberships seen from the team area: who is in a workspace, their roles, and which
 * workspaces a user is in. Pages are keyed by the user's (or workspace's) time-ordered id.
 */
export class MemberStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  #members(workspaceId: string) {
    return this.#database.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email', 'users.name', 'memberships.role', 'memberships.created_at'])
      .where('memberships.workspace_id', '=', workspaceId);
  }

  async list(workspaceId: string, page: PageRequest): Promise<Page<Member>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#members(workspaceId)
      .$if(after !== undefined, (q) => q.where('users.id', '>', after as string))
      .orderBy('users.id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toMember);
  }

  async find(workspaceId: string, userId: string): Promise<Member | undefined> {
    const row = await this.#members(workspaceId).where('users.id', '=', userId).executeTakeFirst();
    return row && toMember(row);
  }

  async isMember(workspaceId: string, email: string): Promise<boolean> {
    const row = await this.#members(workspaceId).where('users.email', '=', email).executeTakeFirst();
    return row !== undefined;
  }

  async countOwners(workspaceId: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async setRole(workspaceId: string, userId: string, role: Role): Promise<void> {
    await this.#database.db
      .updateTable('memberships')
      .set({ role })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** Ends the membership and deletes the user's keys of this workspace with it. */
  async remove(workspaceId: string, userId: string): Promise<void> {
    await this.#database.db.deleteFrom('api_keys').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
    await this.#database.db.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  }

  async findUserByEmail(email: string): Promise<{ id: string } | undefined> {
    return this.#database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  }

  /**
   * Creates the user; false, creating nothing, when one has the email already (another invite
   * to the same address accepted at the same moment).
   */
  async createUser(user: { id: string; email: string; name: string; passwordHash: string }, at: string): Promise<boolean> {
    const result = await this.#database.db
      .insertInto('users')
      .values({ id: user.id, email: user.email, name: user.name, password_hash: user.passwordHash, created_at: at })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async add(workspaceId: string, userId: string, role: Role, at: string): Promise<void> {
    await this.#database.db
      .insertInto('memberships')
      .values({ workspace_id: workspaceId, user_id: userId, role, created_at: at })
      .execute();
  }

  /** The workspaces `userId` belongs to, with their role in each. */
  async workspacesOf(userId: string, page: PageRequest): Promise<Page<TeamListing>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['workspaces.id', 'workspaces.name', 'workspaces.plan', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .$if(after !== undefined, (q) => q.where('workspaces.id', '>', after as string))
      .orderBy('workspaces.id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, (row) => ({ id: row.id, name: row.name, plan: row.plan, role: row.role as Role }));
  }
}

function toMember(row: { id: string; email: string; name: string; role: string; created_at: string }): Member {
  return { userId: row.id, email: row.email, name: row.name, role: row.role as Role, joinedAt: row.created_at };
}
