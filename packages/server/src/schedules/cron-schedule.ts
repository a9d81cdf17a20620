import { LoupeError, minScheduleIntervalMinutes } from '@loupe/contract';
import { Cron } from 'croner';

const cronError = (message: string) =>
  new LoupeError('validation_failed', { message, details: { fieldErrors: { cron: [message] }, formErrors: [] } });

/**
 * How many upcoming runs the frequency check looks at. Runs closer than the minimum come from
 * the time-of-day fields, so they show within a few dozen runs even for a pattern limited to
 * some days or months; listing runs costs about half a millisecond each (time zone arithmetic).
 */
const runsChecked = 60;

/** A cron expression read in a time zone (croner): when it next comes due. */
export class CronSchedule {
  readonly #cron: Cron;

  private constructor(cron: Cron) {
    this.#cron = cron;
  }

  /** The expression as stored: no check of how often it runs (it was checked when saved). */
  static of(expression: string, timezone: string): CronSchedule {
    return new CronSchedule(new Cron(expression, { timezone, mode: '5-or-6-parts', paused: true }));
  }

  /**
   * Checks an expression given by a caller: 5 or 6 fields (or a nickname), that fires at all,
   * and never twice within the minimum interval. Refusals are 400s on the `cron` field.
   */
  static parse(expression: string, timezone: string, from: Date): CronSchedule {
    let schedule: CronSchedule;
    try {
      schedule = CronSchedule.of(expression, timezone);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
      throw cronError(`Not a cron expression of 5 or 6 fields: ${reason}`);
    }
    const runs = schedule.#cron.nextRuns(runsChecked, from);
    if (runs.length === 0) throw cronError('This cron expression never comes due.');
    for (let i = 1; i < runs.length; i++) {
      if ((runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime() < minScheduleIntervalMinutes * 60_000) {
        throw cronError(`This cron expression runs more often than every ${minScheduleIntervalMinutes} minutes, the most a schedule may.`);
      }
    }
    return schedule;
  }

  /** The first run strictly after `at`, or null when there is none. */
  nextAfter(at: Date): Date | null {
    return this.#cron.nextRun(at);
  }
}
