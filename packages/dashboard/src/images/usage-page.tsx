import { useId, useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { formatBytes } from './format-bytes.ts';
import { useImageProject } from './project-context.ts';
import { UsageChart, type UsageMetric } from './usage-chart.tsx';

const count = (value: number) => value.toLocaleString();
const METRICS: UsageMetric[] = [
  { key: 'requests', label: 'Requests', format: count },
  { key: 'bytesServed', label: 'Bytes served', format: formatBytes },
  { key: 'transforms', label: 'Transforms', format: count },
];
const PERIODS = [7, 30, 90] as const;

/** `…/usage`: CDN requests, bytes served and transforms per day, with the cache hit ratio. */
export function UsagePage() {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const [days, setDays] = useState<number>(30);
  const [metricKey, setMetricKey] = useState<UsageMetric['key']>('requests');
  const usage = useQuery(() => api.getImageUsage({ projectId: project.id, days }), [api, project.id, days]);
  const metric = METRICS.find((each) => each.key === metricKey) ?? METRICS[0]!;
  const id = useId();

  const totals = usage.data?.reduce(
    (sum, day) => ({
      requests: sum.requests + day.requests,
      bytesServed: sum.bytesServed + day.bytesServed,
      transforms: sum.transforms + day.transforms,
      hits: sum.hits + day.cacheHitRatio * day.requests,
    }),
    { requests: 0, bytesServed: 0, transforms: 0, hits: 0 },
  );

  return (
    <>
      <div className="section-header">
        <h2>Usage</h2>
        <div className="control-row">
          <div className="inline-field">
            <label htmlFor={`${id}-metric`}>Show</label>
            <select id={`${id}-metric`} value={metricKey} onChange={(event) => setMetricKey(event.target.value as UsageMetric['key'])}>
              {METRICS.map((each) => (
                <option key={each.key} value={each.key}>
                  {each.label}
                </option>
              ))}
            </select>
          </div>
          <div className="inline-field">
            <label htmlFor={`${id}-days`}>Period</label>
            <select id={`${id}-days`} value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {PERIODS.map((each) => (
                <option key={each} value={each}>
                  Last {each} days
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      {usage.status === 'loading' && <LoadingState label="Loading usage" />}
      {usage.status === 'failed' && <ErrorMessage error={usage.error} onRetry={usage.reload} />}
      {usage.status === 'done' && totals && (
        <>
          <dl className="usage-totals">
            <div>
              <dt>Requests</dt>
              <dd>{count(totals.requests)}</dd>
            </div>
            <div>
              <dt>Bytes served</dt>
              <dd>{formatBytes(totals.bytesServed)}</dd>
            </div>
            <div>
              <dt>Transforms</dt>
              <dd>{count(totals.transforms)}</dd>
            </div>
            <div>
              <dt>Cache hits</dt>
              <dd>{totals.requests === 0 ? '–' : `${Math.round((totals.hits / totals.requests) * 100)}%`}</dd>
            </div>
          </dl>
          <div className="card">
            <UsageChart days={usage.data} metric={metric} />
          </div>
          <details className="usage-table">
            <summary>Every day as a table</summary>
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Bytes served</th>
                    <th scope="col">Transforms</th>
                    <th scope="col">Cache hits</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.data.map((day) => (
                    <tr key={day.date}>
                      <td>{day.date}</td>
                      <td>{count(day.requests)}</td>
                      <td>{formatBytes(day.bytesServed)}</td>
                      <td>{count(day.transforms)}</td>
                      <td>{day.requests === 0 ? '–' : `${Math.round(day.cacheHitRatio * 100)}%`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </>
  );
}
