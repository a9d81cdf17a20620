import { LoupeError, type Member, type Page, type Role, roleScopes } from '@loupe/contract';
import { type Database, inTransaction } from '../database/database.ts';
import type { KeysChanged } from '../identity/key-cache.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Principal } from '../principal.ts';
import { MemberStore } from './member-store.ts';
import { assertCanGrant } from './role-grant.ts';

const noSuchMember = () => new LoupeError('not_found', { message: 'No member with this id in the workspace.' });
const lastOwner = () => new LoupeError('last_owner');

/**
 * Members and their roles (DESIGN.md §5). Admins manage members; only owners touch owners;
 * no one gives a role above their own or with rights their key lacks (role-grant.ts);
 * a workspace never loses its last owner. Each change runs under the workspace's row lock,
 * so two owners demoting each other at once cannot both succeed.
 */
export class MemberService {
  readonly #database: Database;
  readonly #members: MemberStore;
  readonly #keysChanged: KeysChanged;

  constructor(database: Database, keysChanged: KeysChanged) {
    this.#database = database;
    this.#members = new MemberStore(database);
    this.#keysChanged = keysChanged;
  }

  list(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<Member>> {
    return this.#members.list(principal.workspaceId, page);
  }

  async changeRole(principal: Principal, userId: string, role: Role): Promise<Member> {
    return this.#locked(principal, async (members, callerRole) => {
      const target = await members.find(principal.workspaceId, userId);
      if (!target) throw noSuchMember();
      if (target.role === 'owner' && callerRole !== 'owner') {
        throw new LoupeError('forbidden', { message: "Only an owner can change an owner's role." });
      }
      // The rights of the role held now, under the lock, not when the request was authenticated.
      const allowed = roleScopes[callerRole];
      assertCanGrant({ role: callerRole, scopes: principal.scopes.filter((scope) => allowed.includes(scope)) }, role);
      if (target.role === 'owner' && role !== 'owner' && (await members.countOwners(principal.workspaceId)) === 1) {
        throw lastOwner();
      }
      await members.setRole(principal.workspaceId, userId, role);
      return { ...target, role };
    }).finally(this.#keysChanged);
  }

  /** Removes a member, or lets any member leave; their keys of this workspace go with them. */
  async remove(principal: Principal, userId: string): Promise<{ deleted: true }> {
    const leaving = userId === principal.userId;
    if (!leaving && !principal.scopes.includes('team:admin')) {
      throw new LoupeError('forbidden', {
        message: 'Removing another member needs the team:admin scope; any member may remove themself.',
        extra: { missingScopes: ['team:admin'] },
      });
    }
    return this.#locked(principal, async (members, callerRole) => {
      const target = await members.find(principal.workspaceId, userId);
      if (!target) throw noSuchMember();
      if (target.role === 'owner') {
        if (!leaving && callerRole !== 'owner') throw new LoupeError('forbidden', { message: 'Only an owner can remove an owner.' });
        if ((await members.countOwners(principal.workspaceId)) === 1) throw lastOwner();
      }
      await members.remove(principal.workspaceId, userId);
      return { deleted: true as const };
    }).finally(this.#keysChanged);
  }

  /**
   * Runs `work` under the workspace lock with the caller's role read again under it: the role
   * the request was authenticated with may have changed while it waited for the lock.
   */
  #locked<T>(principal: Principal, work: (members: MemberStore, callerRole: Role) => Promise<T>): Promise<T> {
    return inTransaction(this.#database, async (transaction) => {
      await new WorkspaceStore(transaction).lockWorkspace(principal.workspaceId);
      const members = new MemberStore(transaction);
      const caller = await members.find(principal.workspaceId, principal.userId);
      if (!caller) throw new LoupeError('not_a_member');
      return work(members, caller.role);
    });
  }
}
