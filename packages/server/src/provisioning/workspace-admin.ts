import { LoupeError } from '@loupe/contract';
import { now } from '../clock.ts';
import { CreditService } from '../credits/credit-service.ts';
import type { Database } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Plans } from '../plans/plans.ts';

export interface WorkspaceListing {
  id: string;
  name: string;
  plan: string;
  balance: number;
}

/** One grant is capped so a typo of a few extra digits is refused rather than honoured. */
const MAX_GRANT = 1_000_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const badInput = (message: string) => new LoupeError('validation_failed', { message });

/**
 * What the operator does with `loupe admin`, outside any request and any workspace role.
 * Arguments arrive as the command line typed them and are checked here: a malformed one is
 * `validation_failed` (the CLI exits 2); a workspace that does not exist is `not_found` (1).
 */
export class WorkspaceAdmin {
  readonly #workspaces: WorkspaceStore;
  readonly #credits: CreditService;
  readonly #plans: Plans;

  constructor(database: Database, plans: Plans) {
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
    const names = this.#plans.names();
    if (!names.includes(input.plan)) {
      throw badInput(`Unknown plan "${input.plan}": choose one of ${names.join(', ')}.`);
    }
    const workspace = await this.#workspaces.findWorkspace(workspaceId);
    if (!workspace) throw new LoupeError('not_found', { message: `No workspace with id ${workspaceId}.` });
    await this.#workspaces.setPlan(workspaceId, input.plan, now());
    return { workspaceId, plan: input.plan, previousPlan: workspace.plan };
  }
}

function workspaceIdOf(value: string): string {
  if (!UUID.test(value)) throw badInput(`--workspace must be a workspace id (a UUID), not "${value}".`);
  return value.toLowerCase();
}
