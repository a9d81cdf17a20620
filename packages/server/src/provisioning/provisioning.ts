import { type Role, roleScopes, type Scope } from '@loupe/contract';
import { now } from '../clock.ts';
import { CreditStore } from '../credits/credit-store.ts';
import { allowanceNote, allowancePeriod } from '../credits/monthly-allowance.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { ApiKeyStore } from '../identity/api-key-store.ts';
import { generateKeySecret, hashKeySecret, keyPrefix } from '../identity/key-secret.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { newId } from '../ids.ts';
import type { Plans } from '../plans/plans.ts';

/**
 * Creating workspaces, members and keys outside a request: first-start bootstrap,
 * `loupe init`, and the admin CLI. Requests go through the services instead.
 */
export async function provisionWorkspace(
  database: Database,
  plans: Plans,
  input: { name: string; plan: string; ownerEmail: string },
): Promise<{ workspaceId: string; userId: string }> {
  return inTransaction(database, async (transaction) => {
    const workspaces = new WorkspaceStore(transaction);
    const at = now();
    const workspaceId = newId();
    await workspaces.insertWorkspace({ id: workspaceId, name: input.name, plan: input.plan }, at);
    // The first month's allowance (DESIGN.md §6); later months come from MonthlyAllowance's ticks.
    const period = allowancePeriod(new Date(at));
    await new CreditStore(transaction).topUp(
      workspaceId,
      period,
      plans.limits(input.plan).monthlyCredits ?? 0,
      allowanceNote(input.plan, period),
    );
    const userId = await addMember(transaction, { workspaceId, email: input.ownerEmail, role: 'owner' });
    return { workspaceId, userId };
  });
}

/** Adds the user with this email (created when new) to the workspace; answers the user's id. */
export async function addMember(database: Database, input: { workspaceId: string; email: string; role: Role }): Promise<string> {
  const workspaces = new WorkspaceStore(database);
  const at = now();
  const email = input.email.toLowerCase();
  let userId = (await workspaces.findUserByEmail(email))?.id;
  if (!userId) {
    userId = newId();
    await workspaces.insertUser({ id: userId, email, name: email.split('@')[0] ?? email }, at);
  }
  await workspaces.insertMembership(input.workspaceId, userId, input.role, at);
  return userId;
}

/** Issues a key for a member; `secret` is used as given (LOUPE_BOOTSTRAP_KEY) or generated. */
export async function issueKey(
  database: Database,
  input: { workspaceId: string; userId: string; role: Role; name: string; scopes?: Scope[]; secret?: string; expiresAt?: string },
): Promise<{ id: string; secret: string }> {
  const secret = input.secret ?? generateKeySecret();
  const key = await new ApiKeyStore(database).insert({
    id: newId(),
    workspaceId: input.workspaceId,
    userId: input.userId,
    name: input.name,
    prefix: keyPrefix(secret),
    secretHash: hashKeySecret(secret),
    scopes: input.scopes ?? [...roleScopes[input.role]],
    expiresAt: input.expiresAt ?? null,
    createdAt: now(),
  });
  return { id: key.id, secret };
}
