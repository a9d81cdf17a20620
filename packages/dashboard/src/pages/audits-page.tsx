import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** Audit projects and their latest score (crawls, reports and diffs build on this). */
export function AuditsPage() {
  const { api } = useWorkspace();
  const projects = useQuery(() => api.listAuditProjects({ limit: 100 }), [api]);
  return (
    <>
      <PageHeader title="Audits" description="Sites you crawl and audit, with their latest health score." />
      {projects.status === 'loading' && <LoadingState label="Loading audit projects" />}
      {projects.status === 'failed' && <ErrorMessage error={projects.error} onRetry={projects.reload} />}
      {projects.status === 'done' && projects.data.length === 0 && (
        <EmptyState title="No audit projects yet">An audit project crawls a site and keeps its reports.</EmptyState>
      )}
      {projects.status === 'done' && projects.data.length > 0 && (
        <ul className="card-list">
          {projects.data.map((project) => (
            <li key={project.id} className="card">
              <h2>{project.name}</h2>
              <p className="muted">{project.siteUrl}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
