import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import type { ImageProjectContext } from './project-context.ts';
import './images.css';

const TABS = [
  { path: '', label: 'Images' },
  { path: 'presets', label: 'Presets' },
  { path: 'signing', label: 'Signing' },
  { path: 'usage', label: 'Usage' },
  { path: 'settings', label: 'Settings' },
] as const;

/** `/w/:ws/images/:projectId/…`: the project's name and address, its tabs, and the tab's screen. */
export function ProjectLayout() {
  const { api, workspace } = useWorkspace();
  const { projectId = '' } = useParams();
  const { pathname } = useLocation();
  const project = useQuery(() => api.getImageProject({ projectId }), [api, projectId]);
  const base = `/w/${workspace.id}/images/${projectId}`;
  const back = (
    <p className="breadcrumb">
      <Link to={`/w/${workspace.id}/images`}>← Image projects</Link>
    </p>
  );

  if (project.status === 'loading')
    return (
      <>
        {back}
        <LoadingState label="Loading the project" />
      </>
    );
  if (project.status === 'failed')
    return (
      <>
        {back}
        <ErrorMessage error={project.error} onRetry={project.reload} />
      </>
    );
  const context: ImageProjectContext = { project: project.data, base, reload: project.reload };
  const { slug, customDomain, requireSignedUrls } = project.data;
  return (
    <div className="image-screen">
      {back}
      <PageHeader
        title={project.data.name}
        description={
          <>
            <code>/cdn/{slug}/</code>
            {customDomain && <> · {customDomain}</>}
            {requireSignedUrls && (
              <>
                {' '}
                · <span className="badge">Signed URLs required</span>
              </>
            )}
          </>
        }
      />
      <nav className="tabs" aria-label="Project">
        <ul>
          {TABS.map((tab) => (
            <li key={tab.path}>
              {/* Images is also the tab of one image (`images/:imageId`), which `end` alone would not mark. */}
              <NavLink
                to={tab.path ? `${base}/${tab.path}` : base}
                end={tab.path === ''}
                className={({ isActive }) =>
                  isActive || (tab.path === '' && pathname.startsWith(`${base}/images/`)) ? 'active' : undefined
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet context={context} />
    </div>
  );
}
