import { z } from 'zod';
import { StartProjectCrawl } from '../audit-projects/audit-project.ts';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { TimeZone } from '../common/time-zone.ts';

/** Schedules a project may have; more would only be one schedule written several ways. */
export const maxSchedulesPerProject = 10;

/** Runs of one schedule are at least this far apart (checked when the expression is saved). */
export const minScheduleIntervalMinutes = 5;

const Cron = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe(
    `A cron expression of 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), or a nickname such as @daily; runs at most every ${minScheduleIntervalMinutes} minutes.`,
  );

const CrawlOverrides = StartProjectCrawl.describe(
  "Crawl options of each run, over the project's crawl defaults (the same fields as startProjectCrawl).",
);

export const scheduleRunOutcomes = ['started', 'skipped-running', 'skipped-plan', 'failed'] as const;

export const ScheduleRun = z
  .object({
    at: Timestamp.describe('When the run took place: the due time, or later when no Loupe process was running then.'),
    outcome: z
      .enum(scheduleRunOutcomes)
      .describe(
        '`started`: a crawl began; `skipped-running`: a crawl of the project was queued or running; `skipped-plan`: the plan no longer includes scheduled crawls; `failed`: the crawl could not start (see `reason`).',
      ),
    crawlId: Id.optional().describe('The crawl started, when one was.'),
    reason: z.string().optional().describe('Why the run did not start a crawl.'),
  })
  .meta({ id: 'ScheduleRun' });
export type ScheduleRun = z.infer<typeof ScheduleRun>;

/** A recurring crawl of an audit project (DESIGN.md §8). */
export const Schedule = z
  .object({
    id: Id,
    projectId: Id,
    cron: z.string(),
    timezone: z.string().describe('The IANA time zone the cron expression is read in.'),
    enabled: z.boolean(),
    crawl: CrawlOverrides,
    nextRunAt: Timestamp.nullable().describe('The next run; null while the schedule is disabled.'),
    lastRunAt: Timestamp.nullable(),
    lastRun: ScheduleRun.nullable().describe('What the latest run did.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof Schedule>;

export const CreateSchedule = z.strictObject({
  cron: Cron,
  timezone: TimeZone.optional().describe("IANA time zone; defaults to the workspace's time zone setting (UTC until set)."),
  enabled: z.boolean().optional().describe('Defaults to true.'),
  crawl: CrawlOverrides.optional(),
});
export type CreateSchedule = z.input<typeof CreateSchedule>;

export const UpdateSchedule = atLeastOneField(
  z.strictObject({
    cron: Cron.optional(),
    timezone: TimeZone.optional(),
    enabled: z.boolean().optional(),
    crawl: CrawlOverrides.optional().describe('Replaces the crawl options entirely.'),
  }),
  'Send at least one field to change.',
);
export type UpdateSchedule = z.input<typeof UpdateSchedule>;

export const ScheduleParams = z.strictObject({ projectId: Id, scheduleId: Id });
