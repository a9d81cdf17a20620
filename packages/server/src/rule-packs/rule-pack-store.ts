import type { Page, RulePack, RulePackSummary, StoredRulePack } from '@loupe/contract';
import type { Selectable } from 'kysely';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { RulePackTable } from '../database/schema.ts';

type RulePackRow = Selectable<RulePackTable>;
const summaryColumns = ['id', 'name', 'description', 'rule_count', 'created_at', 'updated_at'] as const;

function toSummary(row: Omit<RulePackRow, 'workspace_id' | 'pack'>): RulePackSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ruleCount: row.rule_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toStored(row: RulePackRow): StoredRulePack {
  return { ...toSummary(row), pack: JSON.parse(row.pack) as RulePack };
}

/** Rule packs of a workspace: the only module that queries them. */
export class RulePackStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Oldest first. */
  async list(workspaceId: string, page: { limit: number; cursor?: string }): Promise<Page<RulePackSummary>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('rule_packs')
      .select(summaryColumns)
      .where('workspace_id', '=', workspaceId)
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toSummary);
  }

  async find(workspaceId: string, id: string): Promise<StoredRulePack | undefined> {
    const row = await this.#database.db
      .selectFrom('rule_packs')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toStored(row);
  }

  /** The ids among `ids` that are packs of the workspace. */
  async existing(workspaceId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.#database.db
      .selectFrom('rule_packs')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((row) => row.id);
  }

  async insert(workspaceId: string, pack: StoredRulePack): Promise<void> {
    await this.#database.db
      .insertInto('rule_packs')
      .values({
        id: pack.id,
        workspace_id: workspaceId,
        name: pack.name,
        description: pack.description,
        pack: JSON.stringify(pack.pack),
        rule_count: pack.ruleCount,
        created_at: pack.createdAt,
        updated_at: pack.updatedAt,
      })
      .execute();
  }

  /** Replaces everything but the id and creation time; false when the workspace has no such pack. */
  async replace(workspaceId: string, pack: Omit<StoredRulePack, 'createdAt'>): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('rule_packs')
      .set({
        name: pack.name,
        description: pack.description,
        pack: JSON.stringify(pack.pack),
        rule_count: pack.ruleCount,
        updated_at: pack.updatedAt,
      })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', pack.id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.#database.db
      .deleteFrom('rule_packs')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
