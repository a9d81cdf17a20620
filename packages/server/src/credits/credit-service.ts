import { type CreditEntry, type CreditSummary, LoupeError, type Page } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { CreditStore } from './credit-store.ts';

const noSuchWorkspace = (workspaceId: string) => new LoupeError('not_found', { message: `No workspace with id ${workspaceId}.` });

/**
 * Credits (DESIGN.md §6): what a workspace can spend, and the ledger of every grant, hold,
 * release and charge. A crawl reserves its `maxPages` on start and settles on its end.
 *
 * The monthly allowance: in each calendar month (UTC) the balance is topped up to the plan's
 * `monthlyCredits`, once (credits/monthly-allowance.ts; a new workspace's first month at
 * provisioning).
 */
export class CreditService {
  readonly #credits: CreditStore;
  readonly #workspaces: WorkspaceStore;
  readonly #plans: Plans;

  constructor(database: Database, plans: Plans) {
    this.#credits = new CreditStore(database);
    this.#workspaces = new WorkspaceStore(database);
    this.#plans = plans;
  }

  async summary(principal: Principal): Promise<CreditSummary> {
    const workspace = await this.#workspaces.findWorkspace(principal.workspaceId);
    if (!workspace) throw noSuchWorkspace(principal.workspaceId);
    const limits = this.#plans.limits(workspace.plan);
    const [balance, reserved] = await Promise.all([this.#credits.balance(workspace.id), this.#credits.reservedTotal(workspace.id)]);
    return {
      balance: balance ?? 0,
      reserved,
      plan: workspace.plan,
      pagesPerCrawl: limits.pagesPerCrawl,
      monthlyCredits: limits.monthlyCredits,
    };
  }

  /** The credits a workspace can spend now. */
  async balance(workspaceId: string): Promise<number> {
    const balance = await this.#credits.balance(workspaceId);
    if (balance === undefined) throw noSuchWorkspace(workspaceId);
    return balance;
  }

  ledger(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<CreditEntry>> {
    return this.#credits.ledger(principal.workspaceId, page);
  }

  /**
   * Holds `amount` credits for a crawl, or throws 402 insufficient_credits with `required`
   * and `balance` and changes nothing. Atomic: concurrent reservations never overspend.
   */
  async reserve(workspaceId: string, amount: number, crawlId: string): Promise<void> {
    if (await this.#credits.reserve(workspaceId, amount, crawlId)) return;
    const balance = await this.#credits.balance(workspaceId);
    if (balance === undefined) throw noSuchWorkspace(workspaceId);
    throw new LoupeError('insufficient_credits', {
      message: `This needs ${amount} credits; the workspace has ${balance}.`,
      extra: { required: amount, balance },
    });
  }

  /**
   * Ends a crawl's hold: one credit per page used is charged and the rest released. Safe to
   * call again (after a crash, on resume): answers false and charges nothing the second time.
   */
  async settle(workspaceId: string, crawlId: string, reserved: number, used: number): Promise<boolean> {
    // A crawl of an unmetered plan held nothing and is charged nothing.
    if (reserved === 0) return false;
    return this.#credits.settle(workspaceId, crawlId, reserved, used);
  }

  /** The balance of every workspace, by id. */
  balances(): Promise<Map<string, number>> {
    return this.#credits.balances();
  }

  /** Adds credits; answers the new balance. */
  async grant(workspaceId: string, amount: number, note: string | null = null): Promise<number> {
    const balance = await this.#credits.grant(workspaceId, amount, note);
    if (balance === undefined) throw noSuchWorkspace(workspaceId);
    return balance;
  }
}
