import type { Database } from '../database/database.ts';

export interface TeamRow {
  id: string;
  name: string;
  plan: string;
  /** Stored settings as saved, without defaults. */
  settings: Record<string, unknown>;
  creditBalance: number;
  createdAt: string;
  updatedAt: string;
}

export interface TeamCounts {
  crawls: number;
  pagesCrawled: number;
  creditsCharged: number;
  members: number;
  imageProjects: number;
}

function parseSettings(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** A workspace's own row (name, plan, settings) and the counts `GET /team` reports. */
export class TeamStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async find(workspaceId: string): Promise<TeamRow | undefined> {
    const row = await this.#database.db
      .selectFrom('workspaces')
      .select(['id', 'name', 'plan', 'settings', 'credit_balance', 'created_at', 'updated_at'])
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      plan: row.plan,
      settings: parseSettings(row.settings),
      creditBalance: Number(row.credit_balance),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async update(
    workspaceId: string,
    change: { name?: string; plan?: string; settings?: Record<string, unknown> },
    at: string,
  ): Promise<void> {
    await this.#database.db
      .updateTable('workspaces')
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.plan !== undefined ? { plan: change.plan } : {}),
        ...(change.settings !== undefined ? { settings: JSON.stringify(change.settings) } : {}),
        updated_at: at,
      })
      .where('id', '=', workspaceId)
      .execute();
  }

  /** Crawls started and credits charged in [from, to), and the current member and project counts. */
  async counts(workspaceId: string, from: string, to: string): Promise<TeamCounts> {
    const db = this.#database.db;
    const [crawls, charged, members, projects] = await Promise.all([
      db
        .selectFrom('crawls')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('pages_crawled'), eb.lit(0)).as('pages')])
        .where('workspace_id', '=', workspaceId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('credit_ledger')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
        .where('workspace_id', '=', workspaceId)
        .where('kind', '=', 'charge')
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('image_projects')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      crawls: Number(crawls.count),
      pagesCrawled: Number(crawls.pages),
      // Charges are negative ledger amounts.
      creditsCharged: -Number(charged.total),
      members: Number(members.count),
      imageProjects: Number(projects.count),
    };
  }
}
