import { LoupeError, type Schedule, type ScheduleRun } from '@loupe/contract';
import type { Logger } from 'pino';
import { projectCrawlRequest } from '../audit-projects/audit-project-service.ts';
import { AuditProjectStore } from '../audit-projects/audit-project-store.ts';
import { type CrawlService, crawlServiceFor } from '../crawl/crawl-service.ts';
import type { Database } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import type { Infrastructure } from '../infrastructure.ts';
import type { Plans } from '../plans/plans.ts';
import { crawlProjects } from '../rule-packs/crawl-projects.ts';
import { CronSchedule } from './cron-schedule.ts';
import { type ScheduleRow, ScheduleStore } from './schedule-store.ts';

/** Runs one tick takes on at most; any left over are still due at the next tick. */
const runsPerTick = 100;

/** One run this process took: the schedule and what it did. */
export interface TickRun extends ScheduleRun {
  scheduleId: string;
  projectId: string;
}

export interface TickResult {
  at: string;
  /** The runs this process claimed; those another process claimed first are not here. */
  runs: TickRun[];
}

export interface SchedulerOptions {
  database: Database;
  plans: Plans;
  crawls: Pick<CrawlService, 'startFor'>;
  log?: Pick<Logger, 'warn'>;
}

/**
 * Starts the crawls of due schedules (DESIGN.md §8). Every process ticks; a run is claimed by
 * moving its schedule on to the next occurrence with a compare-and-set, so only one process
 * starts it. A run missed while no process ticked fires once, late, and the schedule moves on
 * to its next occurrence after now: no catch-up storm. A claimed run whose process dies before
 * the crawl starts is lost, not repeated: each run starts at most once.
 */
export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #schedules: ScheduleStore;
  readonly #projects: AuditProjectStore;
  readonly #workspaces: WorkspaceStore;

  constructor(options: SchedulerOptions) {
    this.#options = options;
    this.#schedules = new ScheduleStore(options.database);
    this.#projects = new AuditProjectStore(options.database);
    this.#workspaces = new WorkspaceStore(options.database);
  }

  /** Takes every run due at `at` (the real time in the loop; any chosen instant in tests). */
  async tick(at: Date): Promise<TickResult> {
    const instant = at.toISOString();
    const runs: TickRun[] = [];
    for (const schedule of await this.#schedules.due(instant, runsPerTick)) {
      const next = nextRunAfter(schedule, at);
      if (!(await this.#schedules.claim(schedule.id, schedule.next_run_at as string, next))) continue;
      const run = await this.#run(schedule, instant);
      await this.#schedules.recordRun(schedule.id, run);
      runs.push({ scheduleId: schedule.id, projectId: schedule.project_id, ...run });
    }
    return { at: instant, runs };
  }

  async #run(schedule: ScheduleRow, at: string): Promise<ScheduleRun> {
    const workspace = await this.#workspaces.findWorkspace(schedule.workspace_id);
    if (!workspace || !this.#options.plans.limits(workspace.plan).scheduledCrawls) {
      return { at, outcome: 'skipped-plan', reason: "The workspace's plan does not include scheduled crawls." };
    }
    const busy: ScheduleRun = { at, outcome: 'skipped-running', reason: 'A crawl of the project was queued or running.' };
    if (await this.#projects.hasActiveCrawl(schedule.project_id)) return busy;
    try {
      const project = await this.#projects.find(schedule.workspace_id, schedule.project_id);
      if (!project) return { at, outcome: 'failed', reason: 'The project no longer exists.' };
      const request = projectCrawlRequest(project, JSON.parse(schedule.crawl) as Schedule['crawl']);
      // Checked again where it counts: another schedule of the project may be starting its crawl now.
      const crawl = await this.#options.crawls.startFor(schedule.workspace_id, request, { unlessProjectBusy: true });
      if (!crawl) return busy;
      return { at, outcome: 'started', crawlId: crawl.id };
    } catch (error) {
      if (!(error instanceof LoupeError))
        this.#options.log?.warn({ err: error, scheduleId: schedule.id }, 'a scheduled crawl could not start');
      return { at, outcome: 'failed', reason: failureReason(error) };
    }
  }
}

/** The next occurrence strictly after `at`; null (the schedule stops) for an expression that no longer reads. */
function nextRunAfter(schedule: ScheduleRow, at: Date): string | null {
  try {
    return CronSchedule.of(schedule.cron, schedule.timezone).nextAfter(at)?.toISOString() ?? null;
  } catch {
    return null;
  }
}

function failureReason(error: unknown): string {
  if (!(error instanceof LoupeError)) return 'The crawl could not start; the server log has the details.';
  const fields = Object.entries(error.details?.fieldErrors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  return [error.message, ...fields].join(' ');
}

/** The scheduler of a process (serve, worker), starting crawls through the process's job queue. */
export function schedulerFor(infrastructure: Pick<Infrastructure, 'config' | 'database' | 'plans' | 'jobs' | 'log'>): Scheduler {
  const { database, plans, log } = infrastructure;
  return new Scheduler({ database, plans, crawls: crawlServiceFor(infrastructure, crawlProjects(database)), log });
}
