import { Link } from 'react-router';
import { DataTable } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { LoadedList } from '../components/loaded-list.tsx';
import { Pager } from '../reports/pager.tsx';
import { useCursorPages } from '../reports/use-cursor-pages.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CrawlStatusBadge } from './crawl-status-badge.tsx';

const PAGE_SIZE = 10;

/** The project's crawls, newest first, each with its progress page and, once made, its report. */
export function ProjectCrawls({ projectId }: { projectId: string }) {
  const { api, workspace } = useWorkspace();
  const crawls = useCursorPages(
    (cursor, signal) => api.page.listProjectCrawls({ projectId, limit: PAGE_SIZE, cursor }, { signal }),
    [api, projectId],
  );
  return (
    <section className="card project-section" aria-labelledby="crawls-heading">
      <h2 id="crawls-heading">Crawls</h2>
      <LoadedList
        list={{ ...crawls.state, reload: crawls.reload }}
        loadingLabel="Loading crawls"
        empty={<EmptyState title="No crawls yet">Start a crawl to get the first report.</EmptyState>}
      >
        {(items) => (
          <DataTable
            columns={['Started', 'State', 'Pages', 'Report']}
            items={items}
            row={(crawl) => (
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
                <td>
                  {crawl.reportId ? (
                    <Link to={`/w/${workspace.id}/reports/${crawl.reportId}`}>Open report</Link>
                  ) : (
                    <span className="muted">–</span>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </LoadedList>
      <Pager
        label="Crawl pages"
        index={crawls.index}
        hasPrevious={crawls.hasPrevious}
        hasNext={crawls.hasNext}
        onPrevious={crawls.previous}
        onNext={crawls.next}
      />
    </section>
  );
}
