import { Navigate } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { useSignedIn } from '../session/session-context.tsx';
import { lastWorkspace } from './last-workspace.ts';

/** `/`: the workspace used last in this browser, else the user's first. */
export function OpenWorkspace() {
  const { workspaces } = useSignedIn();
  const remembered = lastWorkspace();
  const target = workspaces.find((workspace) => workspace.id === remembered) ?? workspaces[0];
  if (!target) {
    return (
      <main className="centered-page">
        <EmptyState title="No workspace yet">You are not a member of any workspace. Ask an admin for an invite.</EmptyState>
      </main>
    );
  }
  return <Navigate to={`/w/${target.id}`} replace />;
}
