import type { AuditProject, SearchIndexState } from '@loupe/contract';
import { isLoupeError } from '@loupe/sdk';
import { Link } from 'react-router';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import type { useSearchIndex } from './use-search-index.ts';

/** The index's state and its build: never built, building (with pages indexed so far), ready or failed. */
export function SearchIndexCard({ project, index }: { project: AuditProject; index: ReturnType<typeof useSearchIndex> }) {
  const { can, workspace } = useWorkspace();
  const { state } = index;
  const stale = state?.state === 'ready' && project.latestReport !== null && state.reportId !== project.latestReport.id;
  return (
    <section className="card search-index" aria-labelledby="search-index-heading">
      <div className="card-head">
        <h2 id="search-index-heading">Index</h2>
        {can('projects:write') && state && (
          <button
            type="button"
            className="button"
            onClick={() => void index.build()}
            disabled={index.building || state.state === 'building'}
          >
            {state.state === 'building' ? 'Building…' : state.reportId ? 'Rebuild index' : 'Build index'}
          </button>
        )}
      </div>
      {!state && index.error === null && <LoadingState label="Loading the index state" />}
      {index.error !== null && <ErrorMessage error={index.error} onRetry={index.reload} />}
      {state && <IndexState state={state} />}
      {stale && <p className="small">A newer report exists than the one indexed: rebuild to search it.</p>}
      {index.buildError !== null &&
        (isLoupeError(index.buildError, 'project_not_crawled') ? (
          <p className="notice" role="alert">
            This project has no report yet: <Link to={`/w/${workspace.id}/audits/${project.id}`}>crawl it</Link>, then build the index.
          </p>
        ) : (
          <ErrorMessage error={index.buildError} />
        ))}
    </section>
  );
}

function IndexState({ state }: { state: SearchIndexState }) {
  const held = state.reportId && state.builtAt && (
    <>
      {state.pages} page{state.pages === 1 ? '' : 's'}, built{' '}
      <time dateTime={state.builtAt}>{new Date(state.builtAt).toLocaleString()}</time>
    </>
  );
  switch (state.state) {
    case 'none':
      return <p className="muted">Not built yet. Building indexes the pages of the project's newest report.</p>;
    case 'ready':
      return (
        <p>
          <span className="badge good">Ready</span> {held}
        </p>
      );
    case 'failed':
      return (
        <>
          <p>
            <span className="badge bad">Build failed</span> {state.error}
          </p>
          {held && <p className="muted small">Searches read the previous index: {held}.</p>}
        </>
      );
    case 'building':
      return (
        <div role="status" aria-live="polite" className="index-progress">
          <p>
            <span className="badge waiting">Building</span> {state.building?.pagesIndexed ?? 0} pages indexed so far
          </p>
          <progress aria-label="Index build progress" />
          {held && <p className="muted small">Until it completes, searches read the previous index: {held}.</p>}
        </div>
      );
  }
}
