import type { Crawl } from '@loupe/contract';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CrawlPhaseProgress } from './crawl-phase-progress.tsx';
import { CrawlRequests } from './crawl-requests.tsx';
import { CrawlStatusBadge } from './crawl-status-badge.tsx';
import '../reports/reports.css';
import './audits.css';

type Following =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | { status: 'live'; crawl: Crawl; lastUrl: string | null; ended: boolean };

const ended = (status: Crawl['status']) => status === 'completed' || status === 'failed' || status === 'canceled';

/**
 * `/w/:ws/crawls/:crawlId`: a crawl's live progress from its server-sent events
 * (`api.streamCrawlEvents`): its phase, pages and link checks with their rates and the time
 * left, the errors so far and the last requests, ending with a link to its report.
 */
export function CrawlPage() {
  const { crawlId = '' } = useParams();
  const { api, can, workspace } = useWorkspace();
  const [following, setFollowing] = useState<Following>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [canceling, setCanceling] = useState(false);

  useEffect(() => {
    const stop = new AbortController();
    const follow = async () => {
      let crawl = await api.getCrawl({ crawlId }, { signal: stop.signal });
      let lastUrl: string | null = null;
      setFollowing({ status: 'live', crawl, lastUrl, ended: ended(crawl.status) });
      if (ended(crawl.status)) return;
      // The stream starts with the crawl's current state and ends when the crawl does.
      for await (const event of api.streamCrawlEvents({ crawlId }, { signal: stop.signal })) {
        if (event.type === 'progress') {
          const { type: _type, pagesCrawled, maxPages, lastUrl: fetchedLast, ...progress } = event;
          crawl = { ...crawl, pagesCrawled, maxPages, progress };
          lastUrl = fetchedLast;
        } else {
          crawl = { ...crawl, status: event.status, reportId: event.reportId ?? crawl.reportId };
        }
        setFollowing({ status: 'live', crawl, lastUrl, ended: false });
      }
      // The final figures (credits charged, the error of a failed crawl) are the crawl's own.
      crawl = await api.getCrawl({ crawlId }, { signal: stop.signal });
      setFollowing({ status: 'live', crawl, lastUrl, ended: true });
    };
    follow().catch((error: unknown) => {
      if (!stop.signal.aborted) setFollowing({ status: 'failed', error });
    });
    return () => stop.abort();
  }, [api, crawlId, attempt]);

  if (following.status === 'loading') return <LoadingState label="Loading the crawl" />;
  if (following.status === 'failed') {
    return (
      <>
        <PageHeader title="Crawl" />
        <ErrorMessage error={following.error} onRetry={() => setAttempt((n) => n + 1)} />
      </>
    );
  }
  const { crawl, lastUrl } = following;
  const done = following.ended || ended(crawl.status);
  const reportHref = crawl.reportId ? `/w/${workspace.id}/reports/${crawl.reportId}` : undefined;
  return (
    <>
      {crawl.projectId && (
        <p className="breadcrumb">
          <Link to={`/w/${workspace.id}/audits/${crawl.projectId}`}>Back to the project</Link>
        </p>
      )}
      <PageHeader
        title={crawl.mode === 'page' ? 'URL audit' : 'Crawl'}
        description={crawl.url}
        actions={
          !done &&
          can('crawls:write') && (
            <button type="button" className="button" onClick={() => setCanceling(true)}>
              Stop crawl
            </button>
          )
        }
      />
      <section className="card crawl-progress" aria-labelledby="progress-heading">
        <h2 id="progress-heading">
          Progress <CrawlStatusBadge status={crawl.status} />
        </h2>
        <CrawlPhaseProgress crawl={crawl} />
        {crawl.status !== 'queued' && crawl.progress && <CrawlRequests progress={crawl.progress} />}
        <dl className="facts">
          <dt>Pages crawled</dt>
          <dd>
            {crawl.pagesCrawled.toLocaleString('en')} of at most {crawl.maxPages.toLocaleString('en')}
            {crawl.capped && " (lowered to the plan's cap)"}
          </dd>
          <dt>Credits</dt>
          <dd>
            {crawl.creditsCharged === null
              ? `${crawl.creditsReserved.toLocaleString('en')} reserved`
              : `${crawl.creditsCharged.toLocaleString('en')} charged`}
          </dd>
          {lastUrl && !done && (
            <>
              <dt>Last page</dt>
              <dd className="last-url">{lastUrl}</dd>
            </>
          )}
          {crawl.startedAt && (
            <>
              <dt>Started</dt>
              <dd>{new Date(crawl.startedAt).toLocaleString()}</dd>
            </>
          )}
          {crawl.finishedAt && (
            <>
              <dt>Ended</dt>
              <dd>{new Date(crawl.finishedAt).toLocaleString()}</dd>
            </>
          )}
        </dl>
        <div role="status" aria-live="polite" className="crawl-outcome">
          {done && crawl.status === 'failed' && <p className="field-error">The crawl failed{crawl.error ? `: ${crawl.error}` : '.'}</p>}
          {done && crawl.status === 'canceled' && <p>The crawl was canceled; the pages crawled so far are in a partial report.</p>}
          {done && reportHref && (
            <p>
              <Link className="button primary" to={reportHref}>
                Open the report
              </Link>
            </p>
          )}
          {done && !reportHref && crawl.status !== 'failed' && <p className="muted">The crawl ended without a report.</p>}
        </div>
      </section>
      <ConfirmDialog
        open={canceling}
        title="Stop this crawl?"
        confirmLabel="Stop crawl"
        destructive
        onClose={() => setCanceling(false)}
        onConfirm={async () => {
          await api.cancelCrawl({ crawlId });
        }}
      >
        <p>The pages crawled so far are charged and kept in a partial report; the rest of the reserved credits come back.</p>
      </ConfirmDialog>
    </>
  );
}
