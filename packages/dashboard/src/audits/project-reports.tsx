import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { Pager } from '../reports/pager.tsx';
import { ScoreBadge } from '../reports/score-badge.tsx';
import { useCursorPages } from '../reports/use-cursor-pages.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';

const PAGE_SIZE = 10;

/** The project's reports, newest first, with their score and findings. */
export function ProjectReports({ projectId }: { projectId: string }) {
  const { api, workspace } = useWorkspace();
  const reports = useCursorPages((cursor, signal) => api.page.listProjectReports({ projectId, limit: PAGE_SIZE, cursor }, { signal }), [api, projectId]);
  const { state } = reports;
  return (
    <section className="card project-section" aria-labelledby="reports-heading">
      <h2 id="reports-heading">Reports</h2>
      {state.status === 'loading' && <LoadingState label="Loading reports" />}
      {state.status === 'failed' && <ErrorMessage error={state.error} onRetry={reports.reload} />}
      {state.status === 'done' && state.items.length === 0 && <EmptyState title="No reports yet">A report appears when a crawl ends.</EmptyState>}
      {state.status === 'done' && state.items.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Made</th>
                <th scope="col">Health</th>
                <th scope="col">Pages</th>
                <th scope="col">Errors</th>
                <th scope="col">Warnings</th>
                <th scope="col">Notices</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((report) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Report pages" index={reports.index} hasPrevious={reports.hasPrevious} hasNext={reports.hasNext} onPrevious={reports.previous} onNext={reports.next} />
    </section>
  );
}
