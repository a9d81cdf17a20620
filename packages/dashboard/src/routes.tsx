import { Navigate, Outlet, type RouteObject } from 'react-router';
import { WorkspaceLayout } from './layout/workspace-layout.tsx';
import { AuditsPage } from './pages/audits-page.tsx';
import { ImagesPage } from './pages/images-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { SettingsPage } from './pages/settings-page.tsx';
import { SetupPage } from './pages/setup-page.tsx';
import { SignInPage } from './pages/sign-in-page.tsx';
import { TeamPage } from './pages/team-page.tsx';
import { RequireSession } from './session/require-session.tsx';
import { SessionProvider } from './session/session-context.tsx';
import { OpenWorkspace } from './workspace/open-workspace.tsx';

/**
 * Every screen of the dashboard. Signed-in screens live under `/w/:workspaceId/<section>`
 * (layout/sections.ts), so a link names its workspace and the server answers any such path
 * with index.html. A section's deeper screens are its children, e.g.
 * `{ path: 'images/:projectId', element: <ImageProjectPage /> }`.
 */
export const routes: RouteObject[] = [
  {
    element: (
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    ),
    children: [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/setup', element: <SetupPage /> },
      {
        element: <RequireSession />,
        children: [
          { index: true, element: <OpenWorkspace /> },
          {
            path: 'w/:workspaceId',
            element: <WorkspaceLayout />,
            children: [
              { index: true, element: <Navigate to="images" replace /> },
              { path: 'images', element: <ImagesPage /> },
              { path: 'audits', element: <AuditsPage /> },
              { path: 'team', element: <TeamPage /> },
              { path: 'settings', element: <SettingsPage /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      {
        path: '*',
        element: (
          <main className="centered-page" id="main">
            <NotFoundPage />
          </main>
        ),
      },
    ],
  },
];
