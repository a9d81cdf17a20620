import { useId, useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CompareForm } from './compare-form.tsx';

/** Reports offered for a comparison: a project's newest this many. */
const COMPARABLE = 100;

/** A project, then two of its reports to compare. */
export function ReportPairPicker() {
  const { api } = useWorkspace();
  const id = useId();
  const projects = useQuery(() => api.listAuditProjects({ limit: 100 }), [api]);
  const [chosen, setChosen] = useState('');
  if (projects.status === 'loading') return <LoadingState label="Loading audit projects" />;
  if (projects.status === 'failed') return <ErrorMessage error={projects.error} onRetry={projects.reload} />;
  if (projects.data.length === 0)
    return <EmptyState title="No audit projects yet">Reports to compare come from an audit project's crawls.</EmptyState>;
  const projectId = chosen || projects.data[0]!.id;
  return (
    <div className="card">
      <div className="field">
        <label htmlFor={id}>Project</label>
        <select id={id} value={projectId} onChange={(event) => setChosen(event.target.value)}>
          {projects.data.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </div>
      <ProjectReportPair key={projectId} projectId={projectId} />
    </div>
  );
}

function ProjectReportPair({ projectId }: { projectId: string }) {
  const { api } = useWorkspace();
  const reports = useQuery(() => api.listProjectReports({ projectId, limit: COMPARABLE }), [api, projectId]);
  if (reports.status === 'loading') return <LoadingState label="Loading reports" />;
  if (reports.status === 'failed') return <ErrorMessage error={reports.error} onRetry={reports.reload} />;
  return <CompareForm reports={reports.data} />;
}
