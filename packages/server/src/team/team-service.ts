import { LoupeError, type Page, type Team, type TeamListing, type TeamSettings, type UpdateTeam } from '@loupe/contract';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { MemberStore } from './member-store.ts';
import { type TeamRow, TeamStore } from './team-store.ts';

function settingsOf(stored: Record<string, unknown>): TeamSettings {
  return {
    timezone: typeof stored.timezone === 'string' ? stored.timezone : 'UTC',
    notificationEmail: typeof stored.notificationEmail === 'string' ? stored.notificationEmail : null,
  };
}

/** The calendar month in UTC around `at`, as `YYYY-MM` and its [from, to) bounds. */
function monthOf(at: Date): { month: string; from: string; to: string } {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    month: `${year}-${String(month + 1).padStart(2, '0')}`,
    from: new Date(Date.UTC(year, month, 1)).toISOString(),
    to: new Date(Date.UTC(year, month + 1, 1)).toISOString(),
  };
}

/** The workspace itself (DESIGN.md §8 "Team"): what it is, what it may use, what it has used. */
export class TeamService {
  readonly #database: Database;
  readonly #plans: Plans;
  readonly #teams: TeamStore;
  readonly #members: MemberStore;
  /**
   * Whether an owner may choose an unmetered plan: only where new workspaces get one. An
   * instance that sells plans keeps `self-hosted` for its operator (`loupe admin set-plan`).
   */
  readonly #unmeteredChoosable: boolean;

  constructor(database: Database, plans: Plans, options: { defaultPlan: string }) {
    this.#database = database;
    this.#plans = plans;
    this.#unmeteredChoosable = !plans.metered(options.defaultPlan);
    this.#teams = new TeamStore(database);
    this.#members = new MemberStore(database);
  }

  listTeams(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<TeamListing>> {
    return this.#members.workspacesOf(principal.userId, page);
  }

  async get(principal: Principal): Promise<Team> {
    const row = await this.#find(this.#teams, principal.workspaceId);
    const { month, from, to } = monthOf(new Date());
    const counts = await this.#teams.counts(row.id, from, to);
    const limits = this.#plans.limits(row.plan);
    return {
      id: row.id,
      name: row.name,
      plan: row.plan,
      settings: settingsOf(row.settings),
      limits: { ...limits },
      credits: { balance: row.creditBalance, monthlyAllowance: limits.monthlyCredits },
      usage: { month, ...counts },
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /**
   * Renames, merges settings, changes the plan. Credits stay as they are on a plan change
   * (DESIGN.md §6: the allowance comes with the monthly top-up). The row is locked first, so
   * two concurrent setting changes merge rather than one overwriting the other.
   */
  async update(principal: Principal, input: UpdateTeam): Promise<Team> {
    await inTransaction(this.#database, async (transaction) => {
      await new WorkspaceStore(transaction).lockWorkspace(principal.workspaceId);
      const teams = new TeamStore(transaction);
      const current = await this.#find(teams, principal.workspaceId);
      const plan = input.plan === undefined || input.plan === current.plan ? undefined : input.plan;
      if (plan !== undefined) this.#checkPlanChange(principal, plan);
      const settings = input.settings && { ...current.settings, ...input.settings };
      await teams.update(principal.workspaceId, { name: input.name, plan, settings }, now());
    });
    return this.get(principal);
  }

  #checkPlanChange(principal: Principal, plan: string): void {
    if (principal.role !== 'owner') {
      throw new LoupeError('forbidden', { message: 'Only an owner can change the plan.' });
    }
    const names = this.#plans.names();
    if (!names.includes(plan)) {
      throw new LoupeError('validation_failed', {
        details: { fieldErrors: { plan: [`Unknown plan: choose one of ${names.join(', ')}.`] }, formErrors: [] },
      });
    }
    if (!this.#unmeteredChoosable && !this.#plans.metered(plan)) {
      throw new LoupeError('forbidden', {
        message: `The ${plan} plan spends no credits: on this instance only its operator assigns it (loupe admin set-plan).`,
      });
    }
  }

  async #find(teams: TeamStore, workspaceId: string): Promise<TeamRow> {
    const row = await teams.find(workspaceId);
    if (!row) throw new LoupeError('not_found', { message: `No workspace with id ${workspaceId}.` });
    return row;
  }
}
