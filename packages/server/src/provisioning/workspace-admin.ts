import { freeText, LoupeError, type Role } from '@loupe/contract';
import { z } from 'zod';
import { now } from '../clock.ts';
import { CreditService } from '../credits/credit-service.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Plans } from '../plans/plans.ts';
import { issueKey, provisionWorkspace } from './provisioning.ts';

export interface WorkspaceListing {
  id: string;
  name: string;
  plan: string;
  balance: number;
}

/** One grant is capped so a typo of a few extra digits is refused rather than honoured. */
const MAX_GRANT = 1_000_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const WorkspaceName = freeText({ max: 100 });
const Email = z.email().max(254);
const KeyName = freeText({ max: 100 });

const badInput = (message: string) => new LoupeError('validation_failed', { message });
const noWorkspace = (workspaceId: string) =>
  new LoupeError('not_found', { message: `No workspace with id ${workspaceId}: \`loupe admin workspaces\` lists them.` });

export interface UserListing {
  id: string;
  email: string;
  /** Whether the account can sign in to the dashboard (else only its keys, or a reset link, get in). */
  hasPassword: boolean;
  workspaces: { id: string; name: string; role: Role }[];
}

/**
 * What the operator does with `loupe admin`, outside any request and any workspace role.
 * Arguments arrive as the command line typed them and are checked here: a malformed one is
 * `validation_failed` (the CLI exits 2); a workspace that does not exist is `not_found` (1).
 */
export class WorkspaceAdmin {
  readonly #workspaces: WorkspaceStore;
  readonly #credits: CreditService;
  readonly #plans: Plans;
  readonly #database: Database;
  /** The plan of workspaces created without --plan (LOUPE_DEFAULT_PLAN, checked at construction). */
  readonly #defaultPlan: string;

  constructor(database: Database, plans: Plans, options: { defaultPlan?: string } = {}) {
    this.#database = database;
    this.#defaultPlan = plans.defaultPlan(options.defaultPlan);
    this.#workspaces = new WorkspaceStore(database);
    this.#credits = new CreditService(database, plans);
    this.#plans = plans;
  }

  async listWorkspaces(): Promise<WorkspaceListing[]> {
    const [workspaces, balances] = await Promise.all([this.#workspaces.listWorkspaces(), this.#credits.balances()]);
    return workspaces.map((w) => ({ id: w.id, name: w.name, plan: w.plan, balance: balances.get(w.id) ?? 0 }));
  }

  async grantCredits(input: { workspace: string; amount: string; note?: string }) {
    const workspaceId = workspaceIdOf(input.workspace);
    if (!/^\d+$/.test(input.amount) || Number(input.amount) < 1 || Number(input.amount) > MAX_GRANT) {
      throw badInput(`--amount must be a whole number from 1 to ${MAX_GRANT.toLocaleString('en')}, not "${input.amount}".`);
    }
    const amount = Number(input.amount);
    const note = input.note?.trim() || 'Granted by an operator';
    const balance = await this.#credits.grant(workspaceId, amount, note);
    return { workspaceId, granted: amount, balance };
  }

  /** Changes the plan only; the new plan's allowance comes with the next monthly top-up. */
  async setPlan(input: { workspace: string; plan: string }) {
    const workspaceId = workspaceIdOf(input.workspace);
    this.#checkPlan(input.plan);
    const workspace = await this.#workspaces.findWorkspace(workspaceId);
    if (!workspace) throw noWorkspace(workspaceId);
    await this.#workspaces.setPlan(workspaceId, input.plan, now());
    return { workspaceId, plan: input.plan, previousPlan: workspace.plan };
  }

  /**
   * A workspace, its owner (an existing account of that email, or a new one without a
   * password) and an owner key, shown once; the plan is --plan or the default plan.
   */
  async createWorkspace(input: { name: string; ownerEmail: string; plan?: string }) {
    const name = parsed(WorkspaceName, input.name, '--name');
    const email = parsed(Email, input.ownerEmail.trim(), '--owner').toLowerCase();
    const plan = input.plan ?? this.#defaultPlan;
    this.#checkPlan(plan);
    return inTransaction(this.#database, async (transaction) => {
      const ownerExisted = (await new WorkspaceStore(transaction).findUserByEmail(email)) !== undefined;
      const { workspaceId, userId } = await provisionWorkspace(transaction, this.#plans, { name, plan, ownerEmail: email });
      const key = await issueKey(transaction, { workspaceId, userId, role: 'owner', name: 'Created with loupe admin' });
      return { workspaceId, name, plan, owner: { id: userId, email, created: !ownerExisted }, key: { id: key.id, secret: key.secret } };
    });
  }

  /**
   * A new API key of a member of the workspace (its first owner unless --email names another),
   * with that member's role: the way back in when every key is lost.
   */
  async mintKey(input: { workspace: string; email?: string; name?: string }) {
    const workspaceId = workspaceIdOf(input.workspace);
    const name = input.name === undefined ? 'Minted with loupe admin' : parsed(KeyName, input.name, '--name');
    const email = input.email === undefined ? undefined : parsed(Email, input.email.trim(), '--email').toLowerCase();
    if (!(await this.#workspaces.findWorkspace(workspaceId))) throw noWorkspace(workspaceId);
    const members = await this.#members(workspaceId);
    const member = email === undefined ? members.find((m) => m.role === 'owner') : members.find((m) => m.email === email);
    if (!member) {
      const known = members.map((m) => m.email).join(', ') || 'none';
      throw new LoupeError('not_found', { message: `No member ${email ?? 'owner'} in workspace ${workspaceId} (members: ${known}).` });
    }
    const key = await issueKey(this.#database, { workspaceId, userId: member.userId, role: member.role, name });
    return {
      workspaceId,
      user: { id: member.userId, email: member.email },
      role: member.role,
      key: { id: key.id, name, secret: key.secret },
    };
  }

  /** Every account, with its workspaces and roles; --workspace keeps that workspace's members. */
  async listUsers(input: { workspace?: string } = {}): Promise<UserListing[]> {
    const workspaceId = input.workspace === undefined ? undefined : workspaceIdOf(input.workspace);
    if (workspaceId !== undefined && !(await this.#workspaces.findWorkspace(workspaceId))) throw noWorkspace(workspaceId);
    const db = this.#database.db;
    const users = await db.selectFrom('users').select(['id', 'email', 'password_hash']).orderBy('email').execute();
    const memberships = await db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['memberships.user_id', 'memberships.role', 'workspaces.id', 'workspaces.name'])
      .orderBy('memberships.created_at')
      .orderBy('workspaces.id')
      .execute();
    const listings = users.map((user) => ({
      id: user.id,
      email: user.email,
      hasPassword: user.password_hash !== null,
      workspaces: memberships.filter((m) => m.user_id === user.id).map((m) => ({ id: m.id, name: m.name, role: m.role as Role })),
    }));
    return workspaceId === undefined ? listings : listings.filter((user) => user.workspaces.some((w) => w.id === workspaceId));
  }

  async #members(workspaceId: string): Promise<{ userId: string; email: string; role: Role }[]> {
    const rows = await this.#database.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email', 'memberships.role'])
      .where('memberships.workspace_id', '=', workspaceId)
      .orderBy('memberships.created_at')
      .orderBy('users.email')
      .execute();
    return rows.map((row) => ({ userId: row.id, email: row.email, role: row.role as Role }));
  }

  #checkPlan(plan: string): void {
    const names = this.#plans.names();
    if (!names.includes(plan)) throw badInput(`Unknown plan "${plan}": choose one of ${names.join(', ')}.`);
  }
}

/** `value` as `schema` reads it, or validation_failed naming the flag. */
function parsed<T>(schema: z.ZodType<T>, value: string, flag: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badInput(`${flag}: ${result.error.issues[0]?.message ?? 'invalid'} ("${value}").`);
}

function workspaceIdOf(value: string): string {
  if (!UUID.test(value)) throw badInput(`--workspace must be a workspace id (a UUID), not "${value}".`);
  return value.toLowerCase();
}
