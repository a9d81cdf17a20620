import type { FiredCondition } from '@loupe/contract';
import type { Insertable } from 'kysely';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import type { AlertDeliveryTable } from '../database/schema.ts';
import { newId } from '../ids.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { firedConditions } from './alert-conditions.ts';
import { type AlertDeliveryRow, AlertDeliveryStore } from './alert-delivery-store.ts';
import { type AlertEventInput, alertEvent } from './alert-event.ts';
import { AlertEvidenceStore, type ProjectCrawl, type ReportFacts } from './alert-evidence-store.ts';
import { AlertSettingsStore, type StoredChannel } from './alert-settings-store.ts';

const ENDED = new Set(['completed', 'failed', 'canceled']);

/** Where a delivery goes, as the log shows it. */
export function channelTarget(channel: StoredChannel): string {
  return channel.type === 'webhook' ? channel.url : channel.to.join(', ');
}

/** The job of a delivery's next attempt: keyed by attempt, so sending it twice queues it once. */
export function deliveryJobKey(deliveryId: string, attemptsMade: number): string {
  return `alert:${deliveryId}:${attemptsMade}`;
}

/**
 * Makes alerts (DESIGN.md §8): when a crawl of a project ends, checks the project's conditions
 * and queues one delivery per channel listing every condition that fired; on request, a test
 * alert on every channel. Deliveries are rows first and jobs second, so a crash in between
 * is repaired by running `crawlEnded` again (the crawl job does, when it is run again).
 */
export class AlertTrigger {
  readonly #database: Database;
  readonly #jobs: JobQueue;

  constructor(database: Database, jobs: JobQueue) {
    this.#database = database;
    this.#jobs = jobs;
  }

  /** Safe to call any number of times for one crawl: a (crawl, channel) gets one delivery. */
  async crawlEnded(crawlId: string): Promise<void> {
    const evidence = new AlertEvidenceStore(this.#database);
    const crawl = await evidence.projectCrawl(crawlId);
    if (!crawl || !ENDED.has(crawl.status)) return;
    const settings = await new AlertSettingsStore(this.#database).load(crawl.project_id);
    if (settings.enabled && settings.channels.length > 0) {
      const report = (await evidence.reportOfCrawl(crawlId)) ?? null;
      const { conditions } = settings;
      const previous = report ? ((await evidence.previousReport(crawl.project_id, report.id, { scored: false })) ?? null) : null;
      const previousScored =
        report?.score != null && conditions.scoreDropBy !== null
          ? ((await evidence.previousReport(crawl.project_id, report.id, { scored: true })) ?? null)
          : null;
      const newErrors =
        report && previous && conditions.newErrors
          ? { previousReportId: previous.id, ...(await evidence.newErrors(crawlId, previous.crawl_id)) }
          : null;
      const fired = firedConditions(conditions, {
        crawl: { status: crawl.status, error: crawl.error },
        report,
        previousScored: previousScored && { id: previousScored.id, score: previousScored.score as number },
        newErrors,
      });
      if (fired.length > 0) {
        await new AlertDeliveryStore(this.#database).insert(
          this.#deliveryRows(crawl.workspace_id, settings.channels, {
            crawl,
            report,
            previousReport: previous,
            conditions: fired,
            test: false,
            project: projectOf(crawl),
          }),
        );
      }
    }
    // Also those made by an earlier run that crashed before queueing them.
    for (const id of await new AlertDeliveryStore(this.#database).unstarted(crawlId)) await this.#queue(id);
  }

  /** A test alert on every channel of the project, enabled or not; answers the deliveries made. */
  async sendTest(workspaceId: string, projectId: string): Promise<AlertDeliveryRow[]> {
    const project = await new AlertEvidenceStore(this.#database).project(projectId);
    if (!project) return [];
    const settings = await new AlertSettingsStore(this.#database).load(projectId);
    const rows = this.#deliveryRows(workspaceId, settings.channels, {
      crawl: null,
      report: null,
      previousReport: null,
      conditions: [],
      test: true,
      project: { id: project.id, name: project.name, siteUrl: project.site_url },
    });
    const store = new AlertDeliveryStore(this.#database);
    await store.insert(rows);
    for (const row of rows) await this.#queue(row.id);
    return store.byIds(rows.map((row) => row.id));
  }

  #deliveryRows(
    workspaceId: string,
    channels: StoredChannel[],
    alert: Omit<AlertEventInput, 'deliveryId' | 'createdAt'> & {
      crawl: ProjectCrawl | null;
      report: ReportFacts | null;
      conditions: FiredCondition[];
    },
  ): (Insertable<AlertDeliveryTable> & { id: string })[] {
    const createdAt = now();
    return channels.map((channel) => {
      const id = newId();
      return {
        id,
        workspace_id: workspaceId,
        project_id: alert.project.id,
        channel_id: channel.id,
        channel_type: channel.type,
        target: channelTarget(channel),
        crawl_id: alert.crawl?.id ?? null,
        report_id: alert.report?.id ?? null,
        test: alert.test ? 1 : 0,
        conditions: JSON.stringify(alert.conditions),
        payload: JSON.stringify(alertEvent({ ...alert, deliveryId: id, createdAt })),
        status: 'pending',
        created_at: createdAt,
      };
    });
  }

  async #queue(deliveryId: string): Promise<void> {
    await this.#jobs.send('alert.deliver', { deliveryId }, { singletonKey: deliveryJobKey(deliveryId, 0) });
  }
}

function projectOf(crawl: ProjectCrawl) {
  return { id: crawl.project_id, name: crawl.project_name, siteUrl: crawl.site_url };
}
