import type { ReportSummary } from '@loupe/contract';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { CompareForm } from '../diff/compare-form.tsx';
import { counted } from '../reports/report-labels.ts';
import { ScoreBadge } from '../reports/score-badge.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { AuditProjectDialog } from './audit-project-dialog.tsx';
import { LabTrendTable } from './lab-trend-table.tsx';
import { ProjectCrawls } from './project-crawls.tsx';
import { ProjectReports } from './project-reports.tsx';
import { ScoreTrendChart } from './score-trend-chart.tsx';
import '../reports/reports.css';
import './audits.css';

/** Reports offered for a comparison: the newest this many. */
const COMPARABLE = 100;

/**
 * `/w/:ws/audits/:projectId`: one audit project — its newest report, score trend, crawls and
 * reports, a comparison of two reports, and the way to its schedules, alerts and search.
 */
export function AuditProjectPage() {
  const { projectId = '' } = useParams();
  const { api, can, workspace } = useWorkspace();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const project = useQuery(() => api.getAuditProject({ projectId }), [api, projectId]);
  const base = `/w/${workspace.id}/audits/${projectId}`;

  if (project.status === 'loading') return <LoadingState label="Loading the project" />;
  if (project.status === 'failed') {
    return (
      <>
        <PageHeader title="Audit project" description={<Link to={`/w/${workspace.id}/audits`}>All audit projects</Link>} />
        <ErrorMessage error={project.error} onRetry={project.reload} />
      </>
    );
  }
  const actions = (
    <>
      {can('crawls:write') && (
        <Link className="button primary" to={`${base}/crawls/new`}>
          Start crawl
        </Link>
      )}
      {can('projects:write') && (
        <>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" className="button" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </>
      )}
    </>
  );
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/w/${workspace.id}/audits`}>Audits</Link>
      </p>
      <PageHeader
        title={project.data.name}
        description={
          <a href={project.data.siteUrl} target="_blank" rel="noreferrer">
            {project.data.siteUrl}
          </a>
        }
        actions={actions}
      />
      <nav className="sub-nav" aria-label="Project">
        <ul>
          <li>
            <Link to={`${base}/schedules`}>Schedules</Link>
          </li>
          <li>
            <Link to={`${base}/alerts`}>Alerts</Link>
          </li>
          <li>
            <Link to={`${base}/search`}>Search</Link>
          </li>
        </ul>
      </nav>
      <ProjectOverview projectId={projectId} />
      <ProjectCrawls projectId={projectId} />
      <ProjectReports projectId={projectId} />
      <AuditProjectDialog
        open={editing}
        project={project.data}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          project.reload();
        }}
      />
      <ConfirmDialog
        open={deleting}
        title={`Delete ${project.data.name}?`}
        confirmLabel="Delete project"
        destructive
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await api.deleteAuditProject({ projectId });
          navigate(`/w/${workspace.id}/audits`);
        }}
      >
        <p>
          Its schedules, alert settings and search index go with it. Its reports and crawls stay in the workspace, no longer filed under a
          project.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The newest report, the score trend and the comparison form, from the project's newest reports. */
function ProjectOverview({ projectId }: { projectId: string }) {
  const { api, workspace } = useWorkspace();
  const reports = useQuery(() => api.listProjectReports({ projectId, limit: COMPARABLE }), [api, projectId]);
  const trend = useQuery(() => api.getProjectTrend({ projectId }), [api, projectId]);
  const reportHref = (reportId: string) => `/w/${workspace.id}/reports/${reportId}`;
  return (
    <div className="project-overview">
      <section className="card project-section" aria-labelledby="latest-heading">
        <h2 id="latest-heading">Newest report</h2>
        {reports.status === 'loading' && <LoadingState label="Loading the newest report" />}
        {reports.status === 'failed' && <ErrorMessage error={reports.error} onRetry={reports.reload} />}
        {reports.status === 'done' &&
          (reports.data[0] ? (
            <LatestReport report={reports.data[0]} href={reportHref(reports.data[0].id)} />
          ) : (
            <p className="muted">No report yet.</p>
          ))}
      </section>
      <section className="card project-section" aria-labelledby="trend-heading">
        <h2 id="trend-heading">Score trend</h2>
        {trend.status === 'loading' && <LoadingState label="Loading the trend" />}
        {trend.status === 'failed' && <ErrorMessage error={trend.error} onRetry={trend.reload} />}
        {trend.status === 'done' && (
          <>
            <ScoreTrendChart trend={trend.data} reportHref={reportHref} />
            <LabTrendTable trend={trend.data} reportHref={reportHref} />
          </>
        )}
      </section>
      <section className="card project-section" aria-labelledby="compare-heading">
        <h2 id="compare-heading">Compare two reports</h2>
        {reports.status === 'loading' && <LoadingState label="Loading reports" />}
        {reports.status === 'failed' && <ErrorMessage error={reports.error} onRetry={reports.reload} />}
        {reports.status === 'done' && <CompareForm reports={reports.data} />}
      </section>
    </div>
  );
}

function LatestReport({ report, href }: { report: ReportSummary; href: string }) {
  return (
    <div className="latest-report">
      <ScoreBadge score={report.score} grade={report.grade} large />
      <dl className="facts">
        <dt>Made</dt>
        <dd>{new Date(report.createdAt).toLocaleString()}</dd>
        <dt>Pages</dt>
        <dd>
          {report.pages.toLocaleString('en')}
          {report.completeness === 'partial' && ' (partial crawl)'}
        </dd>
        <dt>Findings</dt>
        <dd>{[counted(report.errors, 'error'), counted(report.warnings, 'warning'), counted(report.notices, 'notice')].join(', ')}</dd>
      </dl>
      <Link to={href}>Open the report</Link>
    </div>
  );
}
