import type { Schedule, UpdateSchedule } from '@loupe/contract';
import { useId } from 'react';
import { onlyFieldErrors } from '../api/api-error.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogFormActions } from '../components/dialog-form-actions.tsx';
import { FormField } from '../components/form-field.tsx';
import { PlanAwareError } from '../components/plan-aware-error.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { TimeZoneField } from './time-zone-field.tsx';

const FIELDS = ['cron', 'timezone', 'enabled', 'crawl.maxPages'];

/** Common expressions, offered as suggestions in the cron field. */
const cronExamples = [
  ['0 3 * * *', 'every day at 03:00'],
  ['0 6 * * 1', 'Mondays at 06:00'],
  ['30 2 1 * *', 'the 1st of each month at 02:30'],
  ['0 */6 * * *', 'every 6 hours'],
  ['@daily', 'every day at midnight'],
  ['@weekly', 'Sundays at midnight'],
] as const;

/**
 * Creates a schedule, or changes one (`schedule` given): the cron expression, its time zone,
 * whether it runs, and the pages per crawl. The API's messages show at their fields; a plan
 * without scheduled crawls is explained with what to do.
 */
export function ScheduleDialog({
  projectId,
  schedule,
  open,
  onClose,
  onSaved,
}: {
  projectId: string;
  schedule?: Schedule;
  open: boolean;
  onClose: () => void;
  onSaved: (schedule: Schedule) => void;
}) {
  const { api } = useWorkspace();
  const cronListId = useId();
  const form = useSubmit(async (fields) => {
    const cron = fields.cron ?? '';
    const timezone = fields.timezone?.trim() || undefined;
    const enabled = fields.enabled === 'on';
    const maxPages = fields['crawl.maxPages']?.trim() ? Number(fields['crawl.maxPages']) : undefined;
    if (!schedule) {
      onSaved(
        await api.createSchedule({
          projectId,
          body: { cron, timezone, enabled, crawl: maxPages === undefined ? undefined : { maxPages } },
        }),
      );
      return;
    }
    const body: UpdateSchedule = {};
    if (cron !== schedule.cron) body.cron = cron;
    if (timezone !== undefined && timezone !== schedule.timezone) body.timezone = timezone;
    if (enabled !== schedule.enabled) body.enabled = enabled;
    if (maxPages !== schedule.crawl.maxPages) {
      const { maxPages: _previous, ...rest } = schedule.crawl;
      body.crawl = maxPages === undefined ? rest : { ...rest, maxPages };
    }
    onSaved(Object.keys(body).length === 0 ? schedule : await api.updateSchedule({ projectId, scheduleId: schedule.id, body }));
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Dialog open={open} title={schedule ? 'Change the schedule' : 'New schedule'} onClose={close}>
      <form onSubmit={form.onSubmit} noValidate className="schedule-form">
        {form.error !== null && !onlyFieldErrors(form.error, FIELDS) && <PlanAwareError error={form.error} feature="Scheduled crawls" />}
        <FormField
          label="Cron expression"
          name="cron"
          defaultValue={schedule?.cron ?? '0 3 * * *'}
          list={cronListId}
          autoComplete="off"
          spellCheck={false}
          className="monospace"
          required
          autoFocus
          error={form.error}
          hint="minute hour day-of-month month day-of-week, or @daily; at most one run every 5 minutes."
        />
        <datalist id={cronListId}>
          {cronExamples.map(([expression, meaning]) => (
            <option key={expression} value={expression} label={meaning} />
          ))}
        </datalist>
        <TimeZoneField
          name="timezone"
          defaultValue={schedule?.timezone ?? ''}
          error={form.error}
          hint={
            schedule
              ? 'The IANA zone the expression is read in, e.g. Europe/Berlin.'
              : "An IANA zone such as Europe/Berlin; left empty, the workspace's zone."
          }
        />
        <FormField
          label="Pages per crawl"
          name="crawl.maxPages"
          type="number"
          min={1}
          inputMode="numeric"
          defaultValue={schedule?.crawl.maxPages ?? ''}
          error={form.error}
          hint="Left empty, the project's crawl default (capped by the plan)."
        />
        <label className="check-row">
          <input type="checkbox" name="enabled" defaultChecked={schedule?.enabled ?? true} /> Enabled
        </label>
        <DialogFormActions busy={form.busy} submitLabel={schedule ? 'Save' : 'Create schedule'} busyLabel="Saving…" onCancel={close} />
      </form>
    </Dialog>
  );
}
