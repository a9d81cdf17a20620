import type { Page, Schedule, ScheduleRun } from '@loupe/contract';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { ScheduleTable } from '../database/schema.ts';

export type ScheduleRow = Selectable<ScheduleTable>;

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    projectId: row.project_id,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled === 1,
    crawl: JSON.parse(row.crawl) as Schedule['crawl'],
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastRun:
      row.last_run_at === null || row.last_run_outcome === null
        ? null
        : {
            at: row.last_run_at,
            outcome: row.last_run_outcome as ScheduleRun['outcome'],
            ...(row.last_run_crawl_id !== null && { crawlId: row.last_run_crawl_id }),
            ...(row.last_run_reason !== null && { reason: row.last_run_reason }),
          },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Schedules of audit projects: the only module that queries them. */
export class ScheduleStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async insert(row: Insertable<ScheduleTable>): Promise<void> {
    await this.#database.db.insertInto('schedules').values(row).execute();
  }

  find(workspaceId: string, projectId: string, id: string): Promise<ScheduleRow | undefined> {
    return this.#database.db
      .selectFrom('schedules')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Oldest first. */
  async list(projectId: string, page: { limit: number; cursor?: string }): Promise<Page<Schedule>> {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('schedules')
      .selectAll()
      .where('project_id', '=', projectId)
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toSchedule);
  }

  async count(projectId: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('schedules')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async update(id: string, changes: Updateable<ScheduleTable>): Promise<void> {
    await this.#database.db.updateTable('schedules').set(changes).where('id', '=', id).execute();
  }

  async delete(workspaceId: string, projectId: string, id: string): Promise<boolean> {
    const result = await this.#database.db
      .deleteFrom('schedules')
      .where('workspace_id', '=', workspaceId)
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Enabled schedules whose next run is at or before `at` (ISO text compares in time order), soonest first. */
  due(at: string, limit: number): Promise<ScheduleRow[]> {
    return this.#database.db
      .selectFrom('schedules')
      .selectAll()
      .where('enabled', '=', 1)
      .where('next_run_at', '<=', at)
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Takes the run due at `due` by moving the schedule on to `next`, only if nobody did first:
   * of processes racing for one run, exactly one sees a row change (PostgreSQL re-checks the
   * WHERE after waiting on the row lock; SQLite runs writers one at a time).
   */
  async claim(id: string, due: string, next: string | null): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('schedules')
      .set({ next_run_at: next })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where('next_run_at', '=', due)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recordRun(id: string, run: ScheduleRun): Promise<void> {
    await this.#database.db
      .updateTable('schedules')
      .set({
        last_run_at: run.at,
        last_run_outcome: run.outcome,
        last_run_crawl_id: run.crawlId ?? null,
        last_run_reason: run.reason ?? null,
      })
      .where('id', '=', id)
      .execute();
  }

  /** The workspace's time zone setting, when one was saved. */
  async workspaceTimeZone(workspaceId: string): Promise<string | undefined> {
    const row = await this.#database.db.selectFrom('workspaces').select('settings').where('id', '=', workspaceId).executeTakeFirst();
    if (!row) return undefined;
    const settings = JSON.parse(row.settings) as { timezone?: unknown };
    return typeof settings.timezone === 'string' ? settings.timezone : undefined;
  }
}
