import type { AlertConditions } from '@loupe/contract';
import type { Selectable } from 'kysely';
import { type Database, inTransaction } from '../database/database.ts';
import type { AlertChannelTable } from '../database/schema.ts';

export type StoredChannel = { id: string; type: 'webhook'; url: string; secret: string } | { id: string; type: 'email'; to: string[] };

export interface StoredAlertSettings {
  enabled: boolean;
  conditions: AlertConditions;
  channels: StoredChannel[];
  /** Null while never saved. */
  updatedAt: string | null;
}

/** What a project alerts on before anyone saved its settings: nothing, nowhere. */
export const DEFAULT_ALERT_SETTINGS: StoredAlertSettings = {
  enabled: false,
  conditions: { crawlFailed: false, scoreBelow: null, scoreDropBy: null, newErrors: false },
  channels: [],
  updatedAt: null,
};

function toChannel(row: Selectable<AlertChannelTable>): StoredChannel {
  return row.type === 'webhook'
    ? { id: row.id, type: 'webhook', url: row.target, secret: row.secret ?? '' }
    : { id: row.id, type: 'email', to: JSON.parse(row.target) as string[] };
}

/** A project's alert conditions and channels: the only module that queries them. */
export class AlertSettingsStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async load(projectId: string): Promise<StoredAlertSettings> {
    const db = this.#database.db;
    const row = await db.selectFrom('alert_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();
    if (!row) return DEFAULT_ALERT_SETTINGS;
    const channels = await db.selectFrom('alert_channels').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
    return {
      enabled: row.enabled === 1,
      conditions: {
        crawlFailed: row.crawl_failed === 1,
        scoreBelow: row.score_below,
        scoreDropBy: row.score_drop_by,
        newErrors: row.new_errors === 1,
      },
      channels: channels.map(toChannel),
      updatedAt: row.updated_at,
    };
  }

  /** Replaces the settings and every channel; a channel given with an existing id keeps that id. */
  async save(projectId: string, workspaceId: string, settings: Omit<StoredAlertSettings, 'updatedAt'>, at: string): Promise<void> {
    const { conditions } = settings;
    const values = {
      enabled: settings.enabled ? 1 : 0,
      crawl_failed: conditions.crawlFailed ? 1 : 0,
      score_below: conditions.scoreBelow,
      score_drop_by: conditions.scoreDropBy,
      new_errors: conditions.newErrors ? 1 : 0,
      updated_at: at,
    };
    await inTransaction(this.#database, async ({ db }) => {
      await db
        .insertInto('alert_settings')
        .values({ project_id: projectId, workspace_id: workspaceId, ...values })
        .onConflict((conflict) => conflict.column('project_id').doUpdateSet(values))
        .execute();
      await db.deleteFrom('alert_channels').where('project_id', '=', projectId).execute();
      if (settings.channels.length === 0) return;
      await db
        .insertInto('alert_channels')
        .values(
          settings.channels.map((channel, position) => ({
            id: channel.id,
            project_id: projectId,
            type: channel.type,
            target: channel.type === 'webhook' ? channel.url : JSON.stringify(channel.to),
            secret: channel.type === 'webhook' ? channel.secret : null,
            position,
            created_at: at,
          })),
        )
        .execute();
    });
  }

  /** One channel of the project as it is now (a delivery signs with the current secret). */
  async channel(projectId: string, channelId: string): Promise<StoredChannel | undefined> {
    const row = await this.#database.db
      .selectFrom('alert_channels')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', channelId)
      .executeTakeFirst();
    return row && toChannel(row);
  }
}
