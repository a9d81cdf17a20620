import { Navigate, Outlet, type RouteObject } from 'react-router';
import { LoadingState } from './components/loading-state.tsx';
import { RouteError } from './components/route-error.tsx';
import { imageRoutes } from './images/image-routes.tsx';
import { WorkspaceLayout } from './layout/workspace-layout.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { SetupPage } from './pages/setup-page.tsx';
import { SignInPage } from './pages/sign-in-page.tsx';
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
    // Shown while the first screen's lazily loaded code arrives, and if a screen fails unexpectedly.
    hydrateFallbackElement: <LoadingState label="Loading" fullPage />,
    errorElement: <RouteError />,
    children: [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/setup', element: <SetupPage /> },
      // An invite's link: open signed out, outside the workspace frame.
      { path: '/invites/:token', lazy: () => import('./invites/accept-invite-page.tsx').then((m) => ({ Component: m.AcceptInvitePage })) },
      // A forgotten password: ask for a link, and the link's page (its token after `#`).
      {
        path: '/forgot-password',
        lazy: () => import('./password-reset/forgot-password-page.tsx').then((m) => ({ Component: m.ForgotPasswordPage })),
      },
      {
        path: '/reset-password',
        lazy: () => import('./password-reset/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage })),
      },
      {
        element: <RequireSession />,
        children: [
          { index: true, element: <OpenWorkspace /> },
          {
            path: 'w/:workspaceId',
            element: <WorkspaceLayout />,
            children: [
              { index: true, element: <Navigate to="images" replace /> },
              ...imageRoutes,
              // Audits (audits/, reports/, diff/): each screen loads with its route.
              { path: 'audits', lazy: () => import('./audits/audits-page.tsx').then((m) => ({ Component: m.AuditsPage })) },
              {
                path: 'audits/:projectId',
                lazy: () => import('./audits/audit-project-page.tsx').then((m) => ({ Component: m.AuditProjectPage })),
              },
              {
                path: 'audits/:projectId/crawls/new',
                lazy: () => import('./audits/start-crawl-page.tsx').then((m) => ({ Component: m.StartCrawlPage })),
              },
              { path: 'crawls/:crawlId', lazy: () => import('./audits/crawl-page.tsx').then((m) => ({ Component: m.CrawlPage })) },
              { path: 'reports/:reportId', lazy: () => import('./reports/report-page.tsx').then((m) => ({ Component: m.ReportPage })) },
              {
                path: 'reports/:reportId/links',
                lazy: () => import('./reports/links-page.tsx').then((m) => ({ Component: m.LinksPage })),
              },
              {
                path: 'reports/:reportId/pages/:pageId',
                lazy: () => import('./reports/page-detail-page.tsx').then((m) => ({ Component: m.PageDetailPage })),
              },
              { path: 'diff', lazy: () => import('./diff/diff-page.tsx').then((m) => ({ Component: m.DiffPage })) },
              // Audit automation (schedules/, alerts/, search/, rule-packs/).
              {
                path: 'audits/:projectId/schedules',
                lazy: () => import('./schedules/schedules-page.tsx').then((m) => ({ Component: m.SchedulesPage })),
              },
              {
                path: 'audits/:projectId/alerts',
                lazy: () => import('./alerts/alerts-page.tsx').then((m) => ({ Component: m.AlertsPage })),
              },
              {
                path: 'audits/:projectId/search',
                lazy: () => import('./search/search-page.tsx').then((m) => ({ Component: m.SearchPage })),
              },
              { path: 'rules', lazy: () => import('./rule-packs/rule-packs-page.tsx').then((m) => ({ Component: m.RulePacksPage })) },
              {
                path: 'rules/:packId',
                lazy: () => import('./rule-packs/rule-pack-editor-page.tsx').then((m) => ({ Component: m.RulePackEditorPage })),
              },
              { path: 'team', lazy: () => import('./team/team-page.tsx').then((m) => ({ Component: m.TeamPage })) },
              {
                path: 'settings',
                lazy: () => import('./settings/settings-layout.tsx').then((m) => ({ Component: m.SettingsLayout })),
                children: [
                  {
                    index: true,
                    lazy: () => import('./settings/general-settings-page.tsx').then((m) => ({ Component: m.GeneralSettingsPage })),
                  },
                  { path: 'keys', lazy: () => import('./settings/api-keys-page.tsx').then((m) => ({ Component: m.ApiKeysPage })) },
                  { path: 'billing', lazy: () => import('./settings/billing-page.tsx').then((m) => ({ Component: m.BillingPage })) },
                ],
              },
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
