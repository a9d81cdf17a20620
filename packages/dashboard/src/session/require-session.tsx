import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useSession } from './session-context.tsx';

/** Screens behind sign-in: a visitor goes to the first-run screen or to sign in, and comes back after. */
export function RequireSession() {
  const { state, refresh } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <LoadingState label="Loading your session" fullPage />;
  if (state.status === 'failed') {
    return (
      <main className="centered-page">
        <ErrorMessage error={state.error} onRetry={() => void refresh()} />
      </main>
    );
  }
  if (state.status === 'signed-out') {
    return <Navigate to={state.setupNeeded ? '/setup' : '/sign-in'} replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}
