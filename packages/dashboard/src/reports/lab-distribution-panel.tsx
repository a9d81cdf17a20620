import { type LabDistribution, labMetrics, type MetricDistribution, resourceKinds } from '@loupe/contract';
import { formatBytes, formatLab, labMetricLabels, ratingOf, thresholdsText } from './lab-labels.ts';

/** A rendering crawl's lab metrics over the site: percentiles, and how many pages fall on each side of Google's thresholds. */
export function LabDistributionPanel({ lab }: { lab: LabDistribution }) {
  const kinds = lab.transfer ? resourceKinds.filter((kind) => (lab.transfer?.byKind[kind]?.requests ?? 0) > 0) : [];
  return (
    <section className="report-section" aria-labelledby="lab-distribution-heading">
      <h2 id="lab-distribution-heading">Lab metrics</h2>
      <p className="muted">
        {lab.pages.toLocaleString('en')} {lab.pages === 1 ? 'page' : 'pages'} loaded in a browser: {lab.rendered.toLocaleString('en')}{' '}
        rendered
        {lab.timeouts > 0 && `, ${lab.timeouts.toLocaleString('en')} ran out of time`}
        {lab.failed > 0 && `, ${lab.failed.toLocaleString('en')} failed`}.
      </p>
      <div className="table-scroll card">
        <table className="lab-distribution">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">p50</th>
              <th scope="col">p75</th>
              <th scope="col">p90</th>
              <th scope="col">Pages: good · needs improvement · poor</th>
            </tr>
          </thead>
          <tbody>
            {labMetrics.map((metric) => (
              <DistributionRow key={metric} metric={metric} spread={lab.metrics[metric]} />
            ))}
          </tbody>
        </table>
      </div>
      {lab.transfer && (
        <p className="muted">
          A median page makes {lab.transfer.requests.toLocaleString('en')} requests for {formatBytes(lab.transfer.bytes)}
          {kinds.length > 0 && ` (${kinds.map((kind) => `${kind} ${formatBytes(lab.transfer?.byKind[kind].bytes ?? 0)}`).join(', ')})`}.
        </p>
      )}
    </section>
  );
}

function DistributionRow({ metric, spread }: { metric: (typeof labMetrics)[number]; spread: MetricDistribution }) {
  const cell = (value: number | null) => (
    <td className={`lab-value ${ratingOf(metric, value) ?? 'unrated'}`}>{formatLab(metric, value)}</td>
  );
  const total = spread.good + spread.needsImprovement + spread.poor;
  return (
    <tr data-metric={metric}>
      <th scope="row">
        <abbr title={`${labMetricLabels[metric].long}: ${thresholdsText(metric)}`}>{labMetricLabels[metric].short}</abbr>
      </th>
      {cell(spread.p50)}
      {cell(spread.p75)}
      {cell(spread.p90)}
      <td>
        {total === 0 ? (
          <span className="muted">no reading</span>
        ) : (
          <span className="lab-counts">
            <span className="good">{spread.good}</span> · <span className="needs-improvement">{spread.needsImprovement}</span> ·{' '}
            <span className="poor">{spread.poor}</span>
          </span>
        )}
      </td>
    </tr>
  );
}
