import {
  type AcceptedInvite,
  type AcceptInvite,
  type CreatedInvite,
  type CreateInvite,
  type Invite,
  LoupeError,
  type Page,
  type Role,
} from '@loupe/contract';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { InviteTable } from '../database/schema.ts';
import { hashPassword } from '../identity/password.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { newId } from '../ids.ts';
import type { Caller, Principal } from '../principal.ts';
import { InviteStore, toInvite } from './invite-store.ts';
import { generateInviteToken, hashInviteToken } from './invite-token.ts';
import { MemberStore } from './member-store.ts';
import { assertCanGrant } from './role-grant.ts';

const DAY_MS = 86_400_000;

const noSuchInvite = () => new LoupeError('not_found', { message: 'This invite does not exist, was revoked, or was already used.' });
const alreadyMember = () => new LoupeError('already_member');
// Both name the invited email, which the link's holder may know: the page then says whom to sign in as.
const signInRequired = (email: string) =>
  new LoupeError('sign_in_required', {
    message: `An account has the email ${email} already: sign in as it (or send one of its API keys), then accept. An invite never sets its password.`,
    extra: { email },
  });
const forAnotherAccount = (email: string) =>
  new LoupeError('invite_for_another_account', { message: `This invite is for ${email}, not the account you call as.`, extra: { email } });

/** `name` and `password` make a new account; sent for one that exists, they are refused rather than ignored. */
function refuseNewAccountFields(input: AcceptInvite): void {
  const fieldErrors: Record<string, string[]> = {};
  if (input.password !== undefined) fieldErrors.password = ['This account exists already: an invite never sets or changes its password.'];
  if (input.name !== undefined) fieldErrors.name = ['This account exists already: an invite does not rename it.'];
  if (Object.keys(fieldErrors).length > 0) {
    throw new LoupeError('validation_failed', {
      message: 'Send no name or password to join as an existing account.',
      details: { fieldErrors, formErrors: [] },
    });
  }
}

/** 404 for a token that is not (or no longer) usable, 410 for one that ran out of time. */
function checkUsable(invite: InviteTable | undefined, at: string): asserts invite is InviteTable {
  if (!invite || invite.accepted_at !== null || invite.revoked_at !== null) throw noSuchInvite();
  if (invite.expires_at <= at) throw new LoupeError('invite_expired');
}

/**
 * Invites (DESIGN.md §8 "Team"): a link with a secret token, a role and an expiry. Accepting
 * creates the account if none has the email (or joins the signed-in one that has it) and adds
 * the membership, in one transaction with the mark that uses the invite up.
 */
export class InviteService {
  readonly #database: Database;
  readonly #invites: InviteStore;
  readonly #members: MemberStore;
  readonly #publicUrl: string;

  constructor(database: Database, publicUrl: string) {
    this.#database = database;
    this.#invites = new InviteStore(database);
    this.#members = new MemberStore(database);
    this.#publicUrl = publicUrl;
  }

  async create(principal: Principal, input: CreateInvite): Promise<CreatedInvite> {
    assertCanGrant(principal, input.role);
    const token = generateInviteToken();
    const createdAt = now();
    const row: InviteTable = {
      id: newId(),
      workspace_id: principal.workspaceId,
      email: input.email,
      role: input.role,
      token_hash: hashInviteToken(token),
      invited_by: principal.userId,
      expires_at: new Date(Date.parse(createdAt) + input.expiresInDays * DAY_MS).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
      created_at: createdAt,
    };
    // Under the workspace lock, so two invites to one address sent at once leave one pending.
    await inTransaction(this.#database, async (transaction) => {
      await new WorkspaceStore(transaction).lockWorkspace(principal.workspaceId);
      if (await new MemberStore(transaction).isMember(principal.workspaceId, input.email)) throw alreadyMember();
      const invites = new InviteStore(transaction);
      await invites.revokeOpenFor(principal.workspaceId, input.email, createdAt);
      await invites.insert(row);
    });
    return { ...toInvite(row), token, url: `${this.#publicUrl}/invites/${token}` };
  }

  list(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<Invite>> {
    return this.#invites.listPending(principal.workspaceId, now(), page);
  }

  async revoke(principal: Principal, inviteId: string): Promise<{ deleted: true }> {
    if (!(await this.#invites.revoke(principal.workspaceId, inviteId, now()))) {
      throw new LoupeError('not_found', { message: 'No open invite with this id in the workspace.' });
    }
    return { deleted: true };
  }

  /**
   * Joins the invite's workspace as the account of its email (issue #22, point 1). An account
   * that exists joins only when it is the caller (its session or one of its keys): a link
   * proves nothing about who holds the address, since the inviter holds it too. So an invite
   * never adds an existing account without its consent, and never sets or changes its
   * password. With no account for the email, the caller (signed in as no one) creates it.
   */
  async accept(caller: Caller | null, token: string, input: AcceptInvite): Promise<AcceptedInvite> {
    const invite = await this.#invites.findByTokenHash(hashInviteToken(token));
    checkUsable(invite, now());
    const email = invite.email;
    const existing = await this.#members.findUserByEmail(email);
    if (caller) {
      if (caller.userId !== existing?.id) throw forAnotherAccount(email);
      refuseNewAccountFields(input);
    } else if (existing) {
      throw signInRequired(email);
    }
    // Hashed before the transaction: scrypt takes ~0.1 s, too long to hold the write lock.
    const passwordHash = caller ? undefined : await this.#newPasswordHash(input.password);

    try {
      return await inTransaction(this.#database, async (transaction) => {
        const at = now();
        const invites = new InviteStore(transaction);
        if (!(await invites.claim(invite.id, at))) checkUsable(await invites.findByTokenHash(invite.token_hash), at);
        const members = new MemberStore(transaction);
        const userId = caller?.userId ?? newId();
        if (!caller) {
          const user = { id: userId, email, name: input.name ?? email.split('@')[0] ?? email, passwordHash: passwordHash as string };
          // Another invite to this address accepted meanwhile made the account: it is no longer ours to create.
          if (!(await members.createUser(user, at))) throw signInRequired(email);
        }
        if (await members.find(invite.workspace_id, userId)) throw alreadyMember();
        await members.add(invite.workspace_id, userId, invite.role as Role, at);
        await invites.setAcceptedBy(invite.id, userId);
        const workspace = await new WorkspaceStore(transaction).findWorkspace(invite.workspace_id);
        if (!workspace) throw noSuchInvite();
        return { workspace: { id: workspace.id, name: workspace.name }, userId, email, role: invite.role as Role };
      });
    } catch (error) {
      // The same person joining by another path at the same moment: the membership key says so.
      if (this.#database.isUniqueViolation(error)) throw alreadyMember();
      throw error;
    }
  }

  async #newPasswordHash(password: string | undefined): Promise<string> {
    if (password === undefined) {
      throw new LoupeError('validation_failed', {
        message: 'No account has this email yet: choose a password to create it.',
        details: { fieldErrors: { password: ['Required for a new account.'] }, formErrors: [] },
      });
    }
    return hashPassword(password);
  }
}
