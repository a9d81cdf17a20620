import type { UsageDay } from '@loupe/contract';
import { sql } from 'kysely';
import type { Database } from '../database/database.ts';

export interface UsageCounts {
  requests: number;
  bytesServed: number;
  transforms: number;
  cacheHits: number;
}

/** CDN counters per project and day; batches are added with one upsert each. */
export class UsageStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async add(projectId: string, day: string, counts: UsageCounts): Promise<void> {
    await this.#database.db
      .insertInto('cdn_usage_daily')
      .values({
        project_id: projectId,
        day,
        requests: counts.requests,
        bytes_served: counts.bytesServed,
        transforms: counts.transforms,
        cache_hits: counts.cacheHits,
      })
      .onConflict((conflict) =>
        conflict.columns(['project_id', 'day']).doUpdateSet({
          requests: sql`cdn_usage_daily.requests + excluded.requests`,
          bytes_served: sql`cdn_usage_daily.bytes_served + excluded.bytes_served`,
          transforms: sql`cdn_usage_daily.transforms + excluded.transforms`,
          cache_hits: sql`cdn_usage_daily.cache_hits + excluded.cache_hits`,
        }),
      )
      .execute();
  }

  /** Days from `fromDay` on (inclusive) that have counters, oldest first. */
  async since(projectId: string, fromDay: string): Promise<Map<string, UsageCounts>> {
    const rows = await this.#database.db
      .selectFrom('cdn_usage_daily')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('day', '>=', fromDay)
      .orderBy('day')
      .execute();
    return new Map(
      rows.map((row) => [
        row.day,
        {
          requests: Number(row.requests),
          bytesServed: Number(row.bytes_served),
          transforms: Number(row.transforms),
          cacheHits: Number(row.cache_hits),
        },
      ]),
    );
  }
}

/** One entry per day of the window, zeros where nothing was served. */
export function usageDays(counts: Map<string, UsageCounts>, today: Date, days: number): UsageDay[] {
  const result: UsageDay[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const date = new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const day = counts.get(date) ?? { requests: 0, bytesServed: 0, transforms: 0, cacheHits: 0 };
    result.push({
      date,
      requests: day.requests,
      bytesServed: day.bytesServed,
      transforms: day.transforms,
      cacheHitRatio: day.requests === 0 ? 0 : day.cacheHits / day.requests,
    });
  }
  return result;
}
