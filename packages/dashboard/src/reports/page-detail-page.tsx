import type { ReportPageDetail } from '@loupe/contract';
import { Link, useParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { FindingSamples } from './finding-samples.tsx';
import { IssueInstances } from './issue-instances.tsx';
import { PageLabPanel, PageScreenshot } from './page-lab-panel.tsx';
import { PageLinkLists } from './page-link-lists.tsx';
import { categoryLabel, counted, severities, severityLabels } from './report-labels.ts';
import './reports.css';

/** `/w/:ws/reports/:reportId/pages/:pageId`: one crawled URL — its answer, what it says about itself, and every finding on it. */
export function PageDetailPage() {
  const { reportId = '', pageId = '' } = useParams();
  const { api, workspace } = useWorkspace();
  const page = useQuery(() => api.getReportPage({ reportId, pageId }), [api, reportId, pageId]);
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/w/${workspace.id}/reports/${reportId}`}>Back to the report</Link>
      </p>
      <PageHeader
        title="Page"
        description={page.status === 'done' ? <span className="page-detail-url">{page.data.url}</span> : undefined}
      />
      {page.status === 'loading' && <LoadingState label="Loading the page" />}
      {page.status === 'failed' && <ErrorMessage error={page.error} onRetry={page.reload} />}
      {page.status === 'done' && (
        <>
          <PageDetail page={page.data} reportId={reportId} />
          <PageLinkLists reportId={reportId} pageId={pageId} />
        </>
      )}
    </>
  );
}

const value = (text: string | number | null | undefined) =>
  text === null || text === undefined || text === '' ? <span className="muted">none</span> : text;

function PageDetail({ page, reportId }: { page: ReportPageDetail; reportId: string }) {
  const { api } = useWorkspace();
  return (
    <>
      {(page.lab || page.hasScreenshot) && (
        <div className="page-detail-grid">
          {page.lab && <PageLabPanel lab={page.lab} />}
          {page.hasScreenshot && (
            <PageScreenshot
              load={() => api.getReportPageScreenshot({ reportId, pageId: page.id })}
              loadKey={`${reportId}/${page.id}`}
              alt={`The first screen of ${page.url} as the browser rendered it`}
            />
          )}
        </div>
      )}
      <div className="page-detail-grid">
        <section className="card" aria-labelledby="answer-heading">
          <h2 id="answer-heading">Answer</h2>
          <dl className="facts">
            <dt>Status</dt>
            <dd>{page.status ?? `no answer${page.fetchError ? `: ${page.fetchError}` : ''}`}</dd>
            {page.finalUrl && page.finalUrl !== page.url && (
              <>
                <dt>Final URL</dt>
                <dd className="page-detail-url">{page.finalUrl}</dd>
              </>
            )}
            <dt>Content type</dt>
            <dd>{value(page.contentType)}</dd>
            <dt>Time to first byte</dt>
            <dd>{page.ttfbMs === null ? value(null) : `${page.ttfbMs} ms`}</dd>
            <dt>Response time</dt>
            <dd>{page.responseMs === null ? value(null) : `${page.responseMs} ms`}</dd>
            <dt>Size</dt>
            <dd>{page.bytes === null ? value(null) : `${(page.bytes / 1024).toFixed(1)} KB`}</dd>
            <dt>Depth</dt>
            <dd>
              {page.depth} {page.depth === 1 ? 'click' : 'clicks'}
            </dd>
            <dt>Inlinks</dt>
            <dd>{page.inlinks}</dd>
            <dt>Score</dt>
            <dd>{page.score === null ? <span className="muted">not scored</span> : Math.round(page.score)}</dd>
          </dl>
          {page.redirects.length > 0 && (
            <>
              <h3>Redirects</h3>
              <ol className="redirect-chain">
                {page.redirects.map((hop, index) => (
                  <li key={index}>
                    {hop.status} <span className="page-detail-url">{hop.url}</span>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>
        <section className="card" aria-labelledby="content-heading">
          <h2 id="content-heading">Content</h2>
          <dl className="facts">
            <dt>Title</dt>
            <dd>{value(page.title)}</dd>
            <dt>Description</dt>
            <dd>{value(page.description)}</dd>
            <dt>H1</dt>
            <dd>{value(page.h1)}</dd>
            <dt>Canonical</dt>
            <dd className="page-detail-url">{value(page.canonical)}</dd>
            <dt>Language</dt>
            <dd>{value(page.lang)}</dd>
            <dt>Words</dt>
            <dd>{value(page.words)}</dd>
            <dt>Indexable</dt>
            <dd>{page.indexable === null ? value(null) : page.indexable ? 'yes' : 'no'}</dd>
          </dl>
        </section>
      </div>
      <section className="report-section" aria-labelledby="findings-heading">
        <h2 id="findings-heading">
          Findings{' '}
          <span className="muted">
            {[counted(page.errors, 'error'), counted(page.warnings, 'warning'), counted(page.notices, 'notice')].join(' · ')}
          </span>
        </h2>
        {page.findings.length === 0 ? (
          <EmptyState title="No findings">Every check passed on this page.</EmptyState>
        ) : (
          severities.map((severity) => {
            const findings = page.findings.filter((finding) => finding.severity === severity);
            if (findings.length === 0) return null;
            return (
              <div key={severity} className="card severity-group">
                <h3 className={`severity ${severity}`}>
                  {findings.length} {findings.length === 1 ? severityLabels[severity].one : severityLabels[severity].many}
                </h3>
                <ul className="finding-list">
                  {findings.map((finding) => (
                    <li key={finding.ruleId}>
                      <p>
                        <strong>{finding.title}</strong> <span className="badge subtle">{categoryLabel(finding.category)}</span>
                        {finding.count > 1 && <span className="muted"> ×{finding.count}</span>}
                      </p>
                      {finding.detail && <p className="muted">{finding.detail}</p>}
                      <p>
                        <strong>Fix:</strong> {finding.fix}
                      </p>
                      <FindingSamples samples={finding.samples} />
                      {finding.kept > finding.samples.length && (
                        <IssueInstances reportId={reportId} ruleId={finding.ruleId} pageId={page.id} instances={finding.kept} />
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })
        )}
      </section>
      {Object.keys(page.headers).length > 0 && (
        <details className="card headers-detail">
          <summary>Response headers</summary>
          <div className="table-scroll">
            <table>
              <tbody>
                {Object.entries(page.headers).map(([name, header]) => (
                  <tr key={name}>
                    <th scope="row">{name}</th>
                    <td className="page-detail-url">{header}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </>
  );
}
