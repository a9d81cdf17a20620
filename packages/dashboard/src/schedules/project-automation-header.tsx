import type { AuditProject } from '@loupe/contract';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import './automation.css';

const tabs = [
  { path: 'schedules', label: 'Schedules' },
  { path: 'alerts', label: 'Alerts' },
  { path: 'search', label: 'Search' },
] as const;

/**
 * The top of a project's schedules, alerts and search screens: the way back to the project,
 * the screen's title, and tabs between the three. Renders `children` with the project once
 * it has loaded (a project of another workspace, or none, is the API's 404 in place).
 */
export function ProjectAutomationHeader({
  projectId,
  title,
  description,
  children,
}: {
  projectId: string;
  title: string;
  description: ReactNode;
  children: (project: AuditProject) => ReactNode;
}) {
  const { api, workspace } = useWorkspace();
  const project = useQuery(() => api.getAuditProject({ projectId }), [api, projectId]);
  const base = `/w/${workspace.id}/audits/${projectId}`;
  return (
    <>
      <nav aria-label="Breadcrumb" className="trail">
        <Link to={`/w/${workspace.id}/audits`}>Audits</Link>
        <span aria-hidden="true"> / </span>
        <Link to={base}>{project.status === 'done' ? project.data.name : 'Project'}</Link>
      </nav>
      <PageHeader title={title} description={description} />
      <nav aria-label="Project automation" className="tabs sub-tabs">
        <ul>
          {tabs.map((tab) => (
            <li key={tab.path}>
              <NavLink to={`${base}/${tab.path}`}>{tab.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {project.status === 'loading' && <LoadingState label="Loading the project" />}
      {project.status === 'failed' && <ErrorMessage error={project.error} onRetry={project.reload} />}
      {project.status === 'done' && children(project.data)}
    </>
  );
}
