import type { AuditProject } from '@loupe/contract';
import { isLoupeError } from '@loupe/sdk';
import { Link, useParams, useSearchParams } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { ProjectAutomationHeader } from '../schedules/project-automation-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { SearchIndexCard } from './search-index-card.tsx';
import { SearchSnippet } from './search-snippet.tsx';
import { useSearchIndex } from './use-search-index.ts';
import './search.css';
import { LoadMoreButton } from '../components/load-more-button.tsx';

const PAGE_SIZE = 20;

/** `/w/:ws/audits/:projectId/search?q=`: the project's search index, and full-text search over its pages. */
export function SearchPage() {
  const { projectId = '' } = useParams();
  return (
    <ProjectAutomationHeader
      projectId={projectId}
      title="Search"
      description="Full-text search over the pages of the project's latest report."
    >
      {(project) => <SearchScreen project={project} />}
    </ProjectAutomationHeader>
  );
}

function SearchScreen({ project }: { project: AuditProject }) {
  const index = useSearchIndex(project.id);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const searchable = index.state?.reportId != null;
  return (
    <div className="stack">
      <SearchIndexCard project={project} index={index} />
      {index.state && !searchable && (
        <EmptyState title="Nothing to search yet">Build the index, and the pages of the newest report can be searched here.</EmptyState>
      )}
      {searchable && <SearchResults projectId={project.id} q={q} onSearch={(text) => setParams(text.trim() === '' ? {} : { q: text })} />}
    </div>
  );
}

function SearchBox({ q, error }: { q: string; error: unknown }) {
  return (
    <div className="search-box">
      <FormField
        key={q}
        label="Search pages"
        name="q"
        type="search"
        defaultValue={q}
        autoComplete="off"
        error={error}
        hint='Words (all must appear), "an exact phrase", -word to leave out, a OR b.'
      />
      <button type="submit" className="button primary">
        Search
      </button>
    </div>
  );
}

/** The search box and the hits of `q`, 20 at a time; a refused query shows its message at the box. */
function SearchResults({ projectId, q, onSearch }: { projectId: string; q: string; onSearch: (text: string) => void }) {
  const { api, workspace } = useWorkspace();
  const hits = usePagedList(
    (signal) => (q === '' ? empty() : api.all.searchProject({ projectId, q, limit: PAGE_SIZE + 1 }, { signal })),
    [api, projectId, q],
    PAGE_SIZE,
  );
  const refused = hits.status === 'failed' && onlyFieldErrors(hits.error, ['q']);
  return (
    <section aria-label="Search the pages" className="stack">
      {/* biome-ignore lint/a11y/useSemanticElements: a form with role search, as on the images page */}
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const text = new FormData(event.currentTarget).get('q');
          onSearch(typeof text === 'string' ? text : '');
        }}
      >
        <SearchBox q={q} error={hits.status === 'failed' ? hits.error : null} />
      </form>
      {q !== '' && hits.status === 'loading' && <LoadingState label="Searching" />}
      {hits.status === 'failed' &&
        !refused &&
        (isLoupeError(hits.error, 'search_index_not_built') ? (
          <p className="notice" role="alert">
            The index is not built yet: build it above, then search.
          </p>
        ) : (
          <ErrorMessage error={hits.error} onRetry={hits.reload} />
        ))}
      {q !== '' && hits.status === 'done' && hits.items.length === 0 && (
        <EmptyState title="No pages match">Nothing in the index matches “{q}”. Try fewer words, or other forms of them.</EmptyState>
      )}
      {hits.status === 'done' && hits.items.length > 0 && (
        <>
          <p className="muted small" role="status">
            {hits.hasMore
              ? `The best ${hits.items.length} matches so far`
              : `${hits.items.length} matching page${hits.items.length === 1 ? '' : 's'}`}{' '}
            for “{q}”
          </p>
          <ol className="search-hits">
            {hits.items.map((hit) => (
              <li key={`${hit.reportId}/${hit.pageId}`} className="search-hit">
                <h3>
                  <Link to={`/w/${workspace.id}/reports/${hit.reportId}/pages/${hit.pageId}`}>{hit.title || hit.url}</Link>
                </h3>
                <a className="hit-url" href={hit.url} target="_blank" rel="noreferrer noopener">
                  {hit.url}
                </a>
                <SearchSnippet snippet={hit.snippet} />
              </li>
            ))}
          </ol>
          {hits.error !== null && <ErrorMessage error={hits.error} onRetry={hits.reload} />}
          <LoadMoreButton list={hits} label="Show more results" className="more-row" />
        </>
      )}
    </section>
  );
}

async function* empty(): AsyncGenerator<never> {}
