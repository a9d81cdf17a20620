import type { Database } from '../database/database.ts';
import type { Plans } from '../plans/plans.ts';
import { CreditStore } from './credit-store.ts';

/** Workspaces one tick tops up at most; the rest are still due at the next tick. */
const WORKSPACES_PER_TICK = 500;

/** The calendar month (UTC) an instant falls in, as YYYY-MM. */
export function allowancePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** How the ledger names a month's allowance. */
export function allowanceNote(plan: string, period: string): string {
  return `Monthly allowance of the ${plan} plan (${period})`;
}

/**
 * The monthly credits of DESIGN.md §6: in each calendar month (UTC), every workspace's balance
 * is topped up to its plan's `monthlyCredits`, once. A new workspace gets its first month when
 * it is provisioned; every process's loop then ticks this (with the schedules), and the
 * allowance table's key lets only one of them grant a given month.
 */
export class MonthlyAllowance {
  readonly #credits: CreditStore;
  readonly #plans: Plans;

  constructor(database: Database, plans: Plans) {
    this.#credits = new CreditStore(database);
    this.#plans = plans;
  }

  /** Gives the month of `at` to the workspaces that lack it; answers what this process granted. */
  async tick(at: Date): Promise<{ workspaceId: string; granted: number }[]> {
    const period = allowancePeriod(at);
    const given: { workspaceId: string; granted: number }[] = [];
    for (const workspace of await this.#credits.withoutAllowance(period, WORKSPACES_PER_TICK)) {
      const { monthlyCredits } = this.#plans.limits(workspace.plan);
      // An unmetered plan gets none: the month is recorded as given so it is not asked again.
      const granted = await this.#credits.topUp(workspace.id, period, monthlyCredits ?? 0, allowanceNote(workspace.plan, period));
      if (granted !== undefined) given.push({ workspaceId: workspace.id, granted });
    }
    return given;
  }
}
