import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Plans } from '../plans/plans.ts';
import { issueKey, provisionWorkspace } from './provisioning.ts';

export interface Bootstrapped {
  workspaceId: string;
  userId: string;
  plan: string;
  /** The owner's API key secret: LOUPE_BOOTSTRAP_KEY, or a new one to print once. */
  key: string;
  generated: boolean;
}

export const BOOTSTRAP_OWNER_EMAIL = 'owner@localhost';

/**
 * First start on an empty database (DESIGN.md §3): the workspace "Default", an owner and an
 * API key. Runs at most once per database, even with several processes starting together.
 */
export async function bootstrapInstance(
  database: Database,
  options: { plans: Plans; plan: string; bootstrapKey?: string },
): Promise<Bootstrapped | null> {
  return inTransaction(database, async (transaction) => {
    if (!(await new WorkspaceStore(transaction).claimBootstrap(now()))) return null;
    const { workspaceId, userId } = await provisionWorkspace(transaction, options.plans, {
      name: 'Default',
      plan: options.plan,
      ownerEmail: BOOTSTRAP_OWNER_EMAIL,
    });
    const { secret } = await issueKey(transaction, {
      workspaceId,
      userId,
      role: 'owner',
      name: 'Bootstrap key',
      secret: options.bootstrapKey,
    });
    return { workspaceId, userId, plan: options.plan, key: secret, generated: options.bootstrapKey === undefined };
  });
}
