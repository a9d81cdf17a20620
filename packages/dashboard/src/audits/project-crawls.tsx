import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { Pager } from '../reports/pager.tsx';
import { useCursorPages } from '../reports/use-cursor-pages.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CrawlStatusBadge } from './crawl-status-badge.tsx';

const PAGE_SIZE = 10;

/** The project's crawls, newest first, each with its progress page and, once made, its report. */
export function ProjectCrawls({ projectId }: { projectId: string }) {
  const { api, workspace } = useWorkspace();
  const crawls = useCursorPages((cursor, signal) => api.page.listProjectCrawls({ projectId, limit: PAGE_SIZE, cursor }, { signal }), [api, projectId]);
  const { state } = crawls;
  return (
    <section className="card project-section" aria-labelledby="crawls-heading">
      <h2 id="crawls-heading">Crawls</h2>
      {state.status === 'loading' && <LoadingState label="Loading crawls" />}
      {state.status === 'failed' && <ErrorMessage error={state.error} onRetry={crawls.reload} />}
      {state.status === 'done' && state.items.length === 0 && <EmptyState title="No crawls yet">Start a crawl to get the first report.</EmptyState>}
      {state.status === 'done' && state.items.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">State</th>
                <th scope="col">Pages</th>
                <th scope="col">Report</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((crawl) => (
                <tr key={crawl.id}>
                  <td>
                    <Link to={`/w/${workspace.id}/crawls/${crawl.id}`}>{new Date(crawl.createdAt).toLocaleString()}</Link>
                  </td>
                  <td>
                    <CrawlStatusBadge status={crawl.status} />
                  </td>
                  <td>
                    {crawl.pagesCrawled.toLocaleString('en')} of {crawl.maxPages.toLocaleString('en')}
                  </td>
                  <td>{crawl.reportId ? <Link to={`/w/${workspace.id}/reports/${crawl.reportId}`}>Open report</Link> : <span className="muted">–</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Crawl pages" index={crawls.index} hasPrevious={crawls.hasPrevious} hasNext={crawls.hasNext} onPrevious={crawls.previous} onNext={crawls.next} />
    </section>
  );
}
