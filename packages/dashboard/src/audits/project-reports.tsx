import { Link } from 'react-router';
import { DataTable } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { LoadedList } from '../components/loaded-list.tsx';
import { Pager } from '../reports/pager.tsx';
import { ScoreBadge } from '../reports/score-badge.tsx';
import { useCursorPages } from '../reports/use-cursor-pages.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';

const PAGE_SIZE = 10;

/** The project's reports, newest first, with their score and findings. */
export function ProjectReports({ projectId }: { projectId: string }) {
  const { api, workspace } = useWorkspace();
  const reports = useCursorPages(
    (cursor, signal) => api.page.listProjectReports({ projectId, limit: PAGE_SIZE, cursor }, { signal }),
    [api, projectId],
  );
  return (
    <section className="card project-section" aria-labelledby="reports-heading">
      <h2 id="reports-heading">Reports</h2>
      <LoadedList
        list={{ ...reports.state, reload: reports.reload }}
        loadingLabel="Loading reports"
        empty={<EmptyState title="No reports yet">A report appears when a crawl ends.</EmptyState>}
      >
        {(items) => (
          <DataTable
            columns={['Made', 'Health', 'Pages', 'Errors', 'Warnings', 'Notices']}
            items={items}
            row={(report) => (
              <tr key={report.id}>
                <td>
                  <Link to={`/w/${workspace.id}/reports/${report.id}`}>{new Date(report.createdAt).toLocaleString()}</Link>
                  {report.completeness === 'partial' && <span className="badge subtle">partial</span>}
                  {report.shared && <span className="badge subtle">shared</span>}
                </td>
                <td>
                  <ScoreBadge score={report.score} grade={report.grade} />
                </td>
                <td>{report.pages.toLocaleString('en')}</td>
                <td>{report.errors.toLocaleString('en')}</td>
                <td>{report.warnings.toLocaleString('en')}</td>
                <td>{report.notices.toLocaleString('en')}</td>
              </tr>
            )}
          />
        )}
      </LoadedList>
      <Pager
        label="Report pages"
        index={reports.index}
        hasPrevious={reports.hasPrevious}
        hasNext={reports.hasNext}
        onPrevious={reports.previous}
        onNext={reports.next}
      />
    </section>
  );
}
