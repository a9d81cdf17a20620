import type { Schedule, ScheduleRun } from '@loupe/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { actionsColumn, DataTable } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { LoadedList, queriedList } from '../components/loaded-list.tsx';
import { PlanAwareError } from '../components/plan-aware-error.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { fromNow, inZone } from './format-run-time.ts';
import { ProjectAutomationHeader } from './project-automation-header.tsx';
import { ScheduleDialog } from './schedule-dialog.tsx';

/** `/w/:ws/audits/:projectId/schedules`: a project's recurring crawls, their next and last runs. */
export function SchedulesPage() {
  const { projectId = '' } = useParams();
  return (
    <ProjectAutomationHeader
      projectId={projectId}
      title="Schedules"
      description="Crawl the site on a timetable: a cron expression read in a time zone. A run is skipped while a crawl of the project is running."
    >
      {() => <ScheduleList projectId={projectId} />}
    </ProjectAutomationHeader>
  );
}

type Editing = { mode: 'new' } | { mode: 'edit'; schedule: Schedule } | null;

function ScheduleList({ projectId }: { projectId: string }) {
  const { api, can } = useWorkspace();
  // A project has at most 10 schedules (maxSchedulesPerProject): one page holds them all.
  const schedules = useQuery(() => api.listSchedules({ projectId, limit: 100 }), [api, projectId]);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [toggleError, setToggleError] = useState<unknown>(null);
  const writable = can('projects:write');
  const newSchedule = writable && (
    <button type="button" className="button primary" onClick={() => setEditing({ mode: 'new' })}>
      New schedule
    </button>
  );
  const toggle = async (schedule: Schedule) => {
    setToggleError(null);
    try {
      await api.updateSchedule({ projectId, scheduleId: schedule.id, body: { enabled: !schedule.enabled } });
      schedules.reload();
    } catch (failure) {
      setToggleError(failure);
    }
  };

  return (
    <section aria-label="Schedules">
      <LoadedList
        list={queriedList(schedules)}
        loadingLabel="Loading schedules"
        empty={
          <EmptyState title="No schedules yet" action={newSchedule}>
            A schedule crawls the site regularly, so the score trend and alerts stay current.
          </EmptyState>
        }
      >
        {(items) => (
          <>
            {writable && <div className="section-actions">{newSchedule}</div>}
            {toggleError !== null && <PlanAwareError error={toggleError} feature="Scheduled crawls" />}
            <DataTable
              className="schedules-table"
              columns={['Cron', 'Time zone', 'Next run', 'Last run', writable && actionsColumn]}
              items={items}
              row={(schedule) => (
                <tr key={schedule.id}>
                  <td>
                    <code>{schedule.cron}</code>
                  </td>
                  <td>{schedule.timezone}</td>
                  <td>
                    {schedule.nextRunAt ? (
                      <time dateTime={schedule.nextRunAt} title={schedule.nextRunAt}>
                        {inZone(schedule.nextRunAt, schedule.timezone)} <span className="muted">({fromNow(schedule.nextRunAt)})</span>
                      </time>
                    ) : (
                      <span className="badge muted-badge">Paused</span>
                    )}
                  </td>
                  <td>
                    <LastRun run={schedule.lastRun} timezone={schedule.timezone} />
                  </td>
                  {writable && (
                    <td className="row-buttons">
                      <button
                        type="button"
                        className="button"
                        onClick={() => setEditing({ mode: 'edit', schedule })}
                        aria-label={`Edit ${schedule.cron}`}
                      >
                        Edit
                      </button>
                      <button type="button" className="button" onClick={() => void toggle(schedule)}>
                        {schedule.enabled ? 'Pause' : 'Resume'}
                      </button>
                      <button type="button" className="button" onClick={() => setDeleting(schedule)} aria-label={`Delete ${schedule.cron}`}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              )}
            />
          </>
        )}
      </LoadedList>
      {editing && (
        <ScheduleDialog
          open
          projectId={projectId}
          schedule={editing.mode === 'edit' ? editing.schedule : undefined}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            schedules.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this schedule?"
        confirmLabel="Delete schedule"
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.deleteSchedule({ projectId, scheduleId: deleting.id });
          schedules.reload();
        }}
      >
        <p>
          <code>{deleting?.cron}</code> ({deleting?.timezone}) stops crawling the site. Crawls it already started stay.
        </p>
      </ConfirmDialog>
    </section>
  );
}

const outcomeLabels: Record<ScheduleRun['outcome'], string> = {
  started: 'Crawl started',
  'skipped-running': 'Skipped: a crawl was running',
  'skipped-plan': 'Skipped: the plan has no scheduled crawls',
  failed: 'Failed to start',
};

function LastRun({ run, timezone }: { run: ScheduleRun | null; timezone: string }) {
  const { workspace } = useWorkspace();
  if (!run) return <span className="muted">Not run yet</span>;
  return (
    <div className="last-run">
      <span className={`badge outcome-${run.outcome}`}>{outcomeLabels[run.outcome]}</span>{' '}
      <time dateTime={run.at} title={run.at} className="muted">
        {inZone(run.at, timezone)}
      </time>
      {run.crawlId && (
        <>
          {' '}
          · <Link to={`/w/${workspace.id}/crawls/${run.crawlId}`}>the crawl</Link>
        </>
      )}
      {run.reason && <p className="muted small">{run.reason}</p>}
    </div>
  );
}
