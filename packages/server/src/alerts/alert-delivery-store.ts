import type { AlertDelivery, AlertDeliveryStatus, FiredCondition, Page } from '@loupe/contract';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { AlertDeliveryTable } from '../database/schema.ts';

export type AlertDeliveryRow = Selectable<AlertDeliveryTable>;

export function toAlertDelivery(row: AlertDeliveryRow): AlertDelivery {
  return {
    id: row.id,
    channel: { id: row.channel_id, type: row.channel_type as AlertDelivery['channel']['type'], target: row.target },
    crawlId: row.crawl_id,
    reportId: row.report_id,
    test: row.test === 1,
    conditions: JSON.parse(row.conditions) as FiredCondition[],
    status: row.status as AlertDeliveryStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    responseStatus: row.response_status,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

/** The alert delivery log, which is also each delivery's state: the only module that queries it. */
export class AlertDeliveryStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Adds deliveries, leaving out any whose (crawl, channel) is already there: a crawl alerts each channel once. */
  async insert(rows: Insertable<AlertDeliveryTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#database.db
      .insertInto('alert_deliveries')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['crawl_id', 'channel_id']).doNothing())
      .execute();
  }

  byId(id: string): Promise<AlertDeliveryRow | undefined> {
    return this.#database.db.selectFrom('alert_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byIds(ids: readonly string[]): Promise<AlertDeliveryRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#database.db.selectFrom('alert_deliveries').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }

  /** The crawl's deliveries that no attempt has started on (made, but maybe never queued before a crash). */
  async unstarted(crawlId: string): Promise<string[]> {
    const rows = await this.#database.db
      .selectFrom('alert_deliveries')
      .select('id')
      .where('crawl_id', '=', crawlId)
      .where('status', '=', 'pending')
      .where('attempts', '=', 0)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Starts attempt `attempts + 1`: true for the one caller whose count still matched, so two
   * runs of the same job (a retry racing a follow-up) never both send.
   */
  async claim(id: string, attempts: number): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('alert_deliveries')
      .set({ attempts: attempts + 1 })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records how attempt `attempt` went, unless another run has started a later one since. */
  async settle(id: string, attempt: number, changes: Updateable<AlertDeliveryTable>): Promise<void> {
    await this.#database.db
      .updateTable('alert_deliveries')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('attempts', '=', attempt)
      .execute();
  }

  /** Newest first. */
  async list(
    projectId: string,
    status: AlertDeliveryStatus | undefined,
    page: { limit: number; cursor?: string },
  ): Promise<Page<AlertDelivery>> {
    const before = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('alert_deliveries')
      .selectAll()
      .where('project_id', '=', projectId)
      .$if(status !== undefined, (q) => q.where('status', '=', status as AlertDeliveryStatus))
      .$if(before !== undefined, (q) => q.where('id', '<', before as string))
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toAlertDelivery);
  }
}
