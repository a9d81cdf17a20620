import { useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { ProjectAutomationHeader } from '../schedules/project-automation-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { AlertSettingsForm } from './alert-settings-form.tsx';
import { DeliveriesLog } from './deliveries-log.tsx';
import { TestAlert } from './test-alert.tsx';
import './alerts.css';

/** `/w/:ws/audits/:projectId/alerts`: when the project alerts, where, a test alert, and the delivery log. */
export function AlertsPage() {
  const { projectId = '' } = useParams();
  return (
    <ProjectAutomationHeader
      projectId={projectId}
      title="Alerts"
      description="Hear about a failed crawl, a low or falling score, or new errors, by signed webhook or email."
    >
      {() => <AlertsScreen projectId={projectId} />}
    </ProjectAutomationHeader>
  );
}

function AlertsScreen({ projectId }: { projectId: string }) {
  const { api, can } = useWorkspace();
  const settings = useQuery(() => api.getAlertSettings({ projectId }), [api, projectId]);
  const [unsaved, setUnsaved] = useState(false);
  const [logRound, setLogRound] = useState(0);
  if (settings.status === 'loading') return <LoadingState label="Loading alert settings" />;
  if (settings.status === 'failed') return <ErrorMessage error={settings.error} onRetry={settings.reload} />;
  return (
    <div className="stack alerts-screen">
      <AlertSettingsForm projectId={projectId} settings={settings.data} onDirtyChange={setUnsaved} />
      {can('projects:write') && <TestAlert projectId={projectId} unsaved={unsaved} onSettled={() => setLogRound((n) => n + 1)} />}
      <DeliveriesLog projectId={projectId} round={logRound} />
    </div>
  );
}
