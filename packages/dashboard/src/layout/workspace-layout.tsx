import { type ReactNode, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { useSession, useSignedIn } from '../session/session-context.tsx';
import { WorkspaceProvider } from '../workspace/workspace-context.tsx';
import { sectionOf, sections } from './sections.ts';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';

/**
 * The frame of every signed-in screen: a skip link, the header (brand, workspace switcher,
 * user and sign-out), the navigation between sections, and the screen itself in `<main>`.
 */
export function WorkspaceLayout() {
  const { workspaceId } = useParams();
  const session = useSignedIn();
  const workspace = session.workspaces.find((each) => each.id === workspaceId);
  const current = sectionOf(useLocation().pathname.replace(/^\/w\/[^/]+\/?/, ''));

  if (!workspace) {
    return (
      <Frame>
        <main id="main" className="app-main" tabIndex={-1}>
          <EmptyState title="Not one of your workspaces" action={<Link to="/">Open your workspace</Link>}>
            This workspace does not exist, or you are not a member of it.
          </EmptyState>
        </main>
      </Frame>
    );
  }
  return (
    <WorkspaceProvider workspace={workspace}>
      <Frame switcher>
        <nav className="app-nav tabs" aria-label="Sections">
          <ul>
            {sections.map((section) => (
              <li key={section.path}>
                <Link
                  to={`/w/${workspace.id}/${section.path}`}
                  className={section.path === current ? 'active' : undefined}
                  aria-current={section.path === current ? 'page' : undefined}
                >
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="app-main" tabIndex={-1}>
          <Outlet />
        </main>
      </Frame>
    </WorkspaceProvider>
  );
}

function Frame({ switcher = false, children }: { switcher?: boolean; children: ReactNode }) {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Loupe
        </Link>
        {switcher && <WorkspaceSwitcher />}
        <UserMenu />
      </header>
      {children}
    </div>
  );
}

function UserMenu() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  return (
    <div className="user-menu">
      <span className="user-name" title={session.user.email}>
        {session.user.name}
      </span>
      <button
        type="button"
        className="button"
        onClick={() =>
          signOut().then(
            () => navigate('/sign-in', { replace: true }),
            (failure: unknown) => setError(failure),
          )
        }
      >
        Sign out
      </button>
      {error !== null && <ErrorMessage error={error} />}
    </div>
  );
}
