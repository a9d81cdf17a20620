import { type LabFilter, labFilters, pageSortKeys, type Report } from '@loupe/contract';
import { useMemo, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { HealthSummary } from './health-summary.tsx';
import { IssueGroups } from './issue-groups.tsx';
import { LabDistributionPanel } from './lab-distribution-panel.tsx';
import { PageIndex, type PageIndexFilters, type PageSort, type StatusClass, statusClasses } from './page-index.tsx';
import { SharePanel } from './share-panel.tsx';
import './reports.css';

/** The page index's sort and filters live in the address (`?sort=&order=&rule=&status=&lab=`): a link keeps them, Back undoes them. */
function filtersFrom(params: URLSearchParams): PageIndexFilters {
  const sort = params.get('sort');
  const status = params.get('status');
  const lab = params.get('lab');
  return {
    sort: (pageSortKeys as readonly string[]).includes(sort ?? '') ? (sort as PageSort) : 'url',
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    ruleId: params.get('rule') || undefined,
    statusClass: (statusClasses as readonly string[]).includes(status ?? '') ? (status as StatusClass) : undefined,
    lab: (labFilters as readonly string[]).includes(lab ?? '') ? (lab as LabFilter) : undefined,
  };
}

function paramsFrom(filters: PageIndexFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.sort !== 'url') params.set('sort', filters.sort);
  if (filters.order !== 'asc') params.set('order', filters.order);
  if (filters.ruleId) params.set('rule', filters.ruleId);
  if (filters.statusClass) params.set('status', filters.statusClass);
  if (filters.lab) params.set('lab', filters.lab);
  return params;
}

/**
 * `/w/:ws/reports/:reportId`: a crawl's report — health score and grade, issues by category
 * and severity with what fixing each gains, the page index, sharing and export. The page
 * index loads beside the report, not after it, so its first rows come as soon as they can.
 */
export function ReportPage() {
  const { reportId = '' } = useParams();
  const { api, workspace } = useWorkspace();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const indexHeading = useRef<HTMLHeadingElement>(null);
  const report = useQuery(() => api.getReport({ reportId }), [api, reportId]);
  const pageHref = (pageId: string) => `/w/${workspace.id}/reports/${reportId}/pages/${pageId}`;
  const setFilters = (next: PageIndexFilters) => setParams(paramsFrom(next), { replace: false, preventScrollReset: true });
  const rules = useMemo(
    () =>
      report.status === 'done'
        ? report.data.issues.filter((issue) => issue.pages > 0).map((issue) => ({ id: issue.ruleId, title: issue.title }))
        : [],
    [report.status, report.data],
  );

  return (
    <>
      {report.status === 'done' && report.data.projectId && (
        <p className="breadcrumb">
          <Link to={`/w/${workspace.id}/audits/${report.data.projectId}`}>Back to the project</Link>
        </p>
      )}
      <PageHeader
        title="Report"
        description={report.status === 'done' ? <ReportLine report={report.data} /> : undefined}
        actions={
          report.status === 'done' && (
            <ExportButtons exportAs={(format) => api.exportReport({ reportId, format })} filename={`loupe-report-${reportId}`} />
          )
        }
      />
      {report.status === 'loading' && <LoadingState label="Loading the report" />}
      {report.status === 'failed' && <ErrorMessage error={report.error} onRetry={report.reload} />}
      {report.status === 'done' && (
        <>
          <HealthSummary report={report.data} />
          <SharePanel reportId={reportId} initial={report.data.share} />
          {report.data.lab && <LabDistributionPanel lab={report.data.lab} />}
          <section className="report-section" aria-labelledby="issues-heading">
            <h2 id="issues-heading">Issues</h2>
            {report.data.ruleErrors.length > 0 && (
              <ul className="notice" role="alert" aria-label="Custom rules stopped">
                {report.data.ruleErrors.map((error) => (
                  <li key={error.ruleId}>
                    <code className="small">{error.ruleId}</code>: {error.message}
                  </li>
                ))}
              </ul>
            )}
            <IssueGroups
              report={report.data}
              pageHref={pageHref}
              onShowPages={(ruleId) => {
                setFilters({ ...filters, ruleId });
                indexHeading.current?.scrollIntoView({ behavior: 'smooth' });
                indexHeading.current?.focus({ preventScroll: true });
              }}
            />
          </section>
          <section className="report-section" aria-labelledby="links-heading">
            <h2 id="links-heading">Links</h2>
            <p className="report-links">
              <Link to={`/w/${workspace.id}/reports/${reportId}/links`}>All links</Link>
              <Link to={`/w/${workspace.id}/reports/${reportId}/links?status=broken`}>Broken links</Link>
              <span className="muted">Every link the crawl found, where it is, its anchor and what its target answered.</span>
            </p>
          </section>
        </>
      )}
      {report.status !== 'failed' && (
        <section className="report-section" aria-labelledby="index-heading">
          <h2 id="index-heading" ref={indexHeading} tabIndex={-1}>
            Pages
          </h2>
          <PageIndex
            reportId={reportId}
            rules={rules}
            filters={filters}
            onFiltersChange={setFilters}
            pageHref={pageHref}
            rendered={report.status === 'done' && report.data.lab !== null}
          />
        </section>
      )}
    </>
  );
}

function ReportLine({ report }: { report: Report }) {
  return (
    <>
      <a href={report.url} target="_blank" rel="noreferrer">
        {report.url}
      </a>{' '}
      · {new Date(report.createdAt).toLocaleString()}
      {report.completeness === 'partial' && (
        <>
          {' '}
          · <span className="badge subtle">partial crawl</span>
        </>
      )}
    </>
  );
}
