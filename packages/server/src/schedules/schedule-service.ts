import type { CreateSchedule, UpdateSchedule } from '@loupe/contract';
import { LoupeError, maxSchedulesPerProject, type Page, type Schedule } from '@loupe/contract';
import type { z } from 'zod';
import type { AuditProjectService } from '../audit-projects/audit-project-service.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { newId } from '../ids.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { CronSchedule } from './cron-schedule.ts';
import { type ScheduleRow, ScheduleStore, toSchedule } from './schedule-store.ts';

type Paging = { limit: number; cursor?: string };

const scheduleNotFound = () => new LoupeError('not_found', { message: 'No such schedule in this project.' });

/** Schedules of audit projects (DESIGN.md §8): the rules of saving them; the Scheduler runs them. */
export class ScheduleService {
  readonly #database: Database;
  readonly #plans: Plans;
  readonly #projects: AuditProjectService;
  readonly #store: ScheduleStore;

  constructor(database: Database, plans: Plans, projects: AuditProjectService) {
    this.#database = database;
    this.#plans = plans;
    this.#projects = projects;
    this.#store = new ScheduleStore(database);
  }

  async list(principal: Principal, projectId: string, page: Paging): Promise<Page<Schedule>> {
    await this.#projects.require(principal, projectId);
    return this.#store.list(projectId, page);
  }

  async get(principal: Principal, projectId: string, scheduleId: string): Promise<Schedule> {
    return toSchedule(await this.#require(principal, projectId, scheduleId));
  }

  async create(principal: Principal, projectId: string, input: z.output<typeof CreateSchedule>): Promise<Schedule> {
    await this.#projects.require(principal, projectId);
    await this.#requirePlan(principal.workspaceId);
    const timezone = input.timezone ?? (await this.#store.workspaceTimeZone(principal.workspaceId)) ?? 'UTC';
    const at = new Date();
    const cron = CronSchedule.parse(input.cron, timezone, at);
    const enabled = input.enabled ?? true;
    const id = newId();
    await inTransaction(this.#database, async (transaction) => {
      // Count and insert under the workspace's lock, so two creates cannot both take the last place.
      await new WorkspaceStore(transaction).lockWorkspace(principal.workspaceId);
      const store = new ScheduleStore(transaction);
      if ((await store.count(projectId)) >= maxSchedulesPerProject) {
        throw new LoupeError('schedule_limit_reached', {
          message: `A project has at most ${maxSchedulesPerProject} schedules; change or delete one instead.`,
          extra: { limit: maxSchedulesPerProject },
        });
      }
      await store.insert({
        id,
        workspace_id: principal.workspaceId,
        project_id: projectId,
        cron: input.cron,
        timezone,
        enabled: enabled ? 1 : 0,
        crawl: JSON.stringify(input.crawl ?? {}),
        next_run_at: enabled ? nextRun(cron, at) : null,
        last_run_at: null,
        last_run_outcome: null,
        last_run_crawl_id: null,
        last_run_reason: null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      });
    });
    return this.get(principal, projectId, id);
  }

  /**
   * A change that leaves the schedule enabled needs the plan (a downgraded workspace may still
   * disable or delete what it has). The next run is worked out again from now when the
   * expression, the zone or `enabled` is sent, and kept when only the crawl options change.
   */
  async update(principal: Principal, projectId: string, scheduleId: string, input: z.output<typeof UpdateSchedule>): Promise<Schedule> {
    const row = await this.#require(principal, projectId, scheduleId);
    const enabled = input.enabled ?? row.enabled === 1;
    if (enabled) await this.#requirePlan(principal.workspaceId);
    const expression = input.cron ?? row.cron;
    const timezone = input.timezone ?? row.timezone;
    const at = new Date();
    const timing = input.cron !== undefined || input.timezone !== undefined || input.enabled !== undefined;
    let nextRunAt = row.next_run_at;
    if (timing) {
      // An expression saved before is read as it is; one sent now must pass every check.
      const cron = input.cron !== undefined ? CronSchedule.parse(expression, timezone, at) : CronSchedule.of(expression, timezone);
      nextRunAt = enabled ? nextRun(cron, at) : null;
    }
    await this.#store.update(row.id, {
      cron: expression,
      timezone,
      enabled: enabled ? 1 : 0,
      next_run_at: nextRunAt,
      ...(input.crawl !== undefined && { crawl: JSON.stringify(input.crawl) }),
      updated_at: now(),
    });
    return this.get(principal, projectId, scheduleId);
  }

  async delete(principal: Principal, projectId: string, scheduleId: string): Promise<{ deleted: true }> {
    await this.#projects.require(principal, projectId);
    if (!(await this.#store.delete(principal.workspaceId, projectId, scheduleId))) throw scheduleNotFound();
    return { deleted: true };
  }

  async #require(principal: Principal, projectId: string, scheduleId: string): Promise<ScheduleRow> {
    await this.#projects.require(principal, projectId);
    const row = await this.#store.find(principal.workspaceId, projectId, scheduleId);
    if (!row) throw scheduleNotFound();
    return row;
  }

  async #requirePlan(workspaceId: string): Promise<void> {
    const workspace = await new WorkspaceStore(this.#database).findWorkspace(workspaceId);
    if (workspace && this.#plans.limits(workspace.plan).scheduledCrawls) return;
    throw new LoupeError('plan_feature_unavailable', {
      message: "The workspace's plan does not include scheduled crawls; schedules can still be read, disabled and deleted.",
      extra: { feature: 'scheduledCrawls', plan: workspace?.plan },
    });
  }
}

function nextRun(cron: CronSchedule, after: Date): string | null {
  return cron.nextAfter(after)?.toISOString() ?? null;
}
