import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { ScoreBadge } from '../reports/score-badge.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { AuditProjectDialog } from './audit-project-dialog.tsx';
import '../reports/reports.css';
import './audits.css';

/** `/w/:ws/audits`: the workspace's audit projects with their newest score, and a new one for those allowed. */
export function AuditsPage() {
  const { api, can, workspace } = useWorkspace();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const projects = useQuery(() => api.listAuditProjects({ limit: 100 }), [api]);
  const newProject = can('projects:write') && (
    <button type="button" className="button primary" onClick={() => setCreating(true)}>
      New project
    </button>
  );
  return (
    <>
      <PageHeader title="Audits" description="Sites you crawl and audit, with their latest health score." actions={newProject} />
      {projects.status === 'loading' && <LoadingState label="Loading audit projects" />}
      {projects.status === 'failed' && <ErrorMessage error={projects.error} onRetry={projects.reload} />}
      {projects.status === 'done' && projects.data.length === 0 && (
        <EmptyState title="No audit projects yet" action={newProject}>
          An audit project crawls a site, keeps its reports and shows its score over time.
        </EmptyState>
      )}
      {projects.status === 'done' && projects.data.length > 0 && (
        <ul className="card-list">
          {projects.data.map((project) => (
            <li key={project.id} className="card project-card">
              <h2>
                <Link to={`/w/${workspace.id}/audits/${project.id}`}>{project.name}</Link>
              </h2>
              <p className="muted">{project.siteUrl}</p>
              {project.latestReport ? (
                <p>
                  <ScoreBadge score={project.latestReport.score} grade={project.latestReport.grade} /> last audited{' '}
                  {new Date(project.latestReport.createdAt).toLocaleDateString()}
                </p>
              ) : (
                <p className="muted">Not crawled yet</p>
              )}
            </li>
          ))}
        </ul>
      )}
      <AuditProjectDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(project) => {
          setCreating(false);
          navigate(`/w/${workspace.id}/audits/${project.id}`);
        }}
      />
    </>
  );
}
