import { type LabMetric, labMetrics, type PageLab, resourceKinds } from '@loupe/contract';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { formatBytes, formatLab, labMetricLabels, labRatingLabels, ratingOf, thresholdsText } from './lab-labels.ts';
import { useObjectUrl } from './use-object-url.ts';

const failures: Record<string, string> = {
  timeout: 'The page did not finish within its render budget.',
  crashed: 'The browser tab crashed while rendering the page.',
};

/** What the browser measured on a rendered page: the four lab metrics rated on Google's thresholds, and its transfers. */
export function PageLabPanel({ lab }: { lab: PageLab }) {
  const metrics = lab.metrics;
  const kinds = resourceKinds.filter((kind) => (lab.transfer.byKind[kind]?.requests ?? 0) > 0);
  return (
    <section className="card lab-panel" aria-labelledby="lab-heading">
      <h2 id="lab-heading">Lab metrics</h2>
      {lab.error !== null && (
        <p className="notice" role="status">
          {failures[lab.error] ?? `The page did not render: ${lab.error}.`}
        </p>
      )}
      {metrics && (
        <ul className="lab-metrics">
          {labMetrics.map((metric) => (
            <LabReading key={metric} metric={metric} value={metrics[metric]} />
          ))}
        </ul>
      )}
      <dl className="facts">
        <dt>Requests</dt>
        <dd>
          {lab.transfer.requests.toLocaleString('en')}
          {lab.transfer.failed > 0 && <span className="muted"> ({lab.transfer.failed} failed)</span>}
        </dd>
        <dt>Transferred</dt>
        <dd>{formatBytes(lab.transfer.bytes)}</dd>
        {kinds.length > 0 && (
          <>
            <dt>By kind</dt>
            <dd>
              <ul className="lab-kinds">
                {kinds.map((kind) => (
                  <li key={kind}>
                    {kind}: {lab.transfer.byKind[kind].requests} · {formatBytes(lab.transfer.byKind[kind].bytes)}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {metrics && metrics.renderBlocking.length > 0 && (
          <>
            <dt>Render-blocking</dt>
            <dd className="page-detail-url">{metrics.renderBlocking.join(', ')}</dd>
          </>
        )}
        <dt>Render time</dt>
        <dd>
          {(lab.durationMs / 1000).toFixed(1)} s{!lab.settled && <span className="muted"> (the network never went quiet)</span>}
        </dd>
      </dl>
    </section>
  );
}

function LabReading({ metric, value }: { metric: LabMetric; value: number | null }) {
  const rating = ratingOf(metric, value);
  return (
    <li className={`lab-reading ${rating ?? 'unrated'}`} data-metric={metric}>
      <abbr title={labMetricLabels[metric].long}>{labMetricLabels[metric].short}</abbr>
      <strong>{formatLab(metric, value)}</strong>
      <span className="lab-rating">{rating ? labRatingLabels[rating] : 'no reading'}</span>
      <span className="muted small">{thresholdsText(metric)}</span>
    </li>
  );
}

/** The first screen as the browser painted it, loaded through the SDK (the API wants the workspace header). */
export function PageScreenshot({ load, loadKey, alt }: { load: () => Promise<unknown>; loadKey: string; alt: string }) {
  // `loadKey` names what `load` loads: the function itself is new on every render.
  const shot = useQuery(async () => (await load()) as Uint8Array, [loadKey]);
  const url = useObjectUrl(shot.data, 'image/jpeg');
  return (
    <section className="card screenshot-panel" aria-labelledby="screenshot-heading">
      <h2 id="screenshot-heading">Screenshot</h2>
      {shot.status === 'loading' && <LoadingState label="Loading the screenshot" />}
      {shot.status === 'failed' && <ErrorMessage error={shot.error} onRetry={shot.reload} />}
      {url && <img className="page-screenshot" src={url} alt={alt} />}
    </section>
  );
}
