import type { Team } from '@loupe/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { SelectField } from '../components/select-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { TimeZoneOptions } from './time-zone-options.tsx';
import { WorkspaceId } from './workspace-id.tsx';

const FIELDS = ['name', 'settings', 'settings.timezone', 'settings.notificationEmail'];

/** `/w/:ws/settings`: the workspace's name, time zone and notification email; read-only for those without team:admin. */
export function GeneralSettingsPage() {
  const { api, can } = useWorkspace();
  const team = useQuery(() => api.getTeam(), [api]);
  return (
    <section className="settings-section" aria-labelledby="general-heading">
      <h2 id="general-heading">General</h2>
      <WorkspaceId />
      {team.status === 'loading' && <LoadingState label="Loading the workspace" />}
      {team.status === 'failed' && <ErrorMessage error={team.error} onRetry={team.reload} />}
      {team.status === 'done' &&
        (can('team:admin') ? <GeneralForm team={team.data} onSaved={team.reload} /> : <GeneralFacts team={team.data} />)}
    </section>
  );
}

function GeneralForm({ team, onSaved }: { team: Team; onSaved: () => void }) {
  const { api } = useWorkspace();
  const { refresh } = useSession();
  const [saved, setSaved] = useState(false);
  const form = useSubmit(async (fields) => {
    setSaved(false);
    const email = (fields['settings.notificationEmail'] ?? '').trim();
    await api.updateTeam({
      body: {
        name: fields.name ?? '',
        settings: { timezone: fields['settings.timezone'] ?? team.settings.timezone, notificationEmail: email === '' ? null : email },
      },
    });
    setSaved(true);
    onSaved();
    // The workspace switcher shows the name from the session.
    await refresh();
  });
  return (
    <form className="card settings-form" onSubmit={form.onSubmit} onChange={() => setSaved(false)} noValidate>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, FIELDS)} />}
      <FormField label="Name" name="name" defaultValue={team.name} required maxLength={100} error={form.error} />
      <SelectField
        label="Time zone"
        name="settings.timezone"
        defaultValue={team.settings.timezone}
        hint="Schedules run on this zone's clock."
        error={form.error}
      >
        <TimeZoneOptions current={team.settings.timezone} />
      </SelectField>
      <FormField
        label="Notification email"
        name="settings.notificationEmail"
        type="email"
        autoComplete="email"
        defaultValue={team.settings.notificationEmail ?? ''}
        hint="Where workspace notices go. Leave it empty for none."
        error={form.error}
      />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          {form.busy ? 'Saving…' : 'Save settings'}
        </button>
        <span role="status" className="muted">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      <PlanLine team={team} />
    </form>
  );
}

function GeneralFacts({ team }: { team: Team }) {
  return (
    <>
      <dl className="card facts">
        <dt>Workspace name</dt>
        <dd>{team.name}</dd>
        <dt>Time zone</dt>
        <dd>{team.settings.timezone}</dd>
        <dt>Notification email</dt>
        <dd>{team.settings.notificationEmail ?? 'None'}</dd>
      </dl>
      <p className="muted">Only admins and owners change these settings.</p>
      <PlanLine team={team} />
    </>
  );
}

/** The plan is changed with the credits it governs, on the billing screen (where plan notices elsewhere link to). */
function PlanLine({ team }: { team: Team }) {
  const { workspace } = useWorkspace();
  return (
    <p className="muted">
      Plan: <span className="badge">{team.plan}</span>{' '}
      <Link to={`/w/${workspace.id}/settings/billing`}>
        {workspace.role === 'owner' ? 'Change the plan under Billing' : 'Limits and credits under Billing'}
      </Link>
    </p>
  );
}
