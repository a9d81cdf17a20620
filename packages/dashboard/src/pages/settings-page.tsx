import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** The workspace: plan, credits and settings (renaming, API keys and plan changes build on this). */
export function SettingsPage() {
  const { api } = useWorkspace();
  const team = useQuery(() => api.getTeam({}), [api]);
  return (
    <>
      <PageHeader title="Settings" description="This workspace's plan, credits and settings." />
      {team.status === 'loading' && <LoadingState label="Loading the workspace" />}
      {team.status === 'failed' && <ErrorMessage error={team.error} onRetry={team.reload} />}
      {team.status === 'done' && (
        <dl className="card facts">
          <dt>Name</dt>
          <dd>{team.data.name}</dd>
          <dt>Plan</dt>
          <dd>{team.data.plan}</dd>
          <dt>Credits</dt>
          <dd>
            {team.data.credits.balance.toLocaleString()} of {team.data.credits.monthlyAllowance.toLocaleString()} a month
          </dd>
          <dt>Time zone</dt>
          <dd>{team.data.settings.timezone}</dd>
        </dl>
      )}
    </>
  );
}
