import { LoupeError } from '@loupe/contract';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorMessage } from './error-message.tsx';

/** What failed, in words: the API's error as ErrorMessage shows it, anything else by its message. */
function Failure({ error }: { error: unknown }) {
  if (error instanceof LoupeError) return <ErrorMessage error={error} />;
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div className="error-message" role="alert">
      <p>
        <strong>{message}</strong>
      </p>
    </div>
  );
}

/**
 * What a screen shows instead of React Router's developer page when it throws while rendering
 * or its code cannot be loaded (a tab left open across an upgrade asks for files the new build
 * no longer has): the failure, and a reload, which fetches the current build.
 */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className="centered-page" id="main">
      <div className="card auth-card">
        <h1>This screen could not be shown</h1>
        <Failure error={error} />
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    </main>
  );
}
