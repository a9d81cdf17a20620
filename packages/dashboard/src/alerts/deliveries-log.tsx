import { type AlertDelivery, AlertDeliveryStatus, type FiredCondition } from '@loupe/contract';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { DeliveryStatus } from './delivery-status.tsx';

const PAGE_SIZE = 10;

/** The delivery log, newest first, a page at a time, optionally of one state only. `round` reloads it. */
export function DeliveriesLog({ projectId, round }: { projectId: string; round: number }) {
  const { api } = useWorkspace();
  const filterId = useId();
  const [status, setStatus] = useState<AlertDelivery['status'] | ''>('');
  const deliveries = usePagedList(
    (signal) => api.all.listAlertDeliveries({ projectId, status: status || undefined, limit: PAGE_SIZE + 1 }, { signal }),
    [api, projectId, status],
    PAGE_SIZE,
  );
  const { reload } = deliveries;
  // A new round (a test alert sent or settled) reads the log again, keeping it on screen meanwhile.
  useEffect(() => {
    if (round > 0) reload();
  }, [round, reload]);
  return (
    <section className="card deliveries" aria-labelledby="deliveries-heading">
      <div className="card-head">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="inline-field">
          <label htmlFor={filterId}>Show</label>
          <select id={filterId} value={status} onChange={(event) => setStatus(event.target.value as AlertDelivery['status'] | '')}>
            <option value="">All</option>
            {AlertDeliveryStatus.options.map((option) => (
              <option key={option} value={option}>
                {option[0]!.toUpperCase() + option.slice(1)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedTable
        list={deliveries}
        loadingLabel="Loading deliveries"
        empty={
          <EmptyState title={status ? `No ${status} deliveries` : 'No deliveries yet'}>
            Alerts sent to the channels, tests included, are listed here.
          </EmptyState>
        }
        columns={['When', 'Channel', 'Alert', 'Outcome']}
        row={(delivery) => (
          <tr key={delivery.id}>
            <td>
              <time dateTime={delivery.createdAt}>{new Date(delivery.createdAt).toLocaleString()}</time>
            </td>
            <td className="wrap-anywhere">
              {delivery.channel.type === 'webhook' ? 'Webhook' : 'Email'} <span className="muted small">{delivery.channel.target}</span>
            </td>
            <td>
              <AlertSummary delivery={delivery} />
            </td>
            <td>
              <DeliveryStatus delivery={delivery} />
              <div className="muted small">
                {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
              </div>
            </td>
          </tr>
        )}
        more={{ label: 'Show older deliveries', className: 'more-row' }}
      />
    </section>
  );
}

function AlertSummary({ delivery }: { delivery: AlertDelivery }) {
  const { workspace } = useWorkspace();
  if (delivery.test) return <span className="badge muted-badge">Test</span>;
  return (
    <>
      <ul className="plain-list">
        {delivery.conditions.map((condition, index) => (
          <li key={index}>{describeCondition(condition)}</li>
        ))}
      </ul>
      {delivery.reportId && (
        <Link className="small" to={`/w/${workspace.id}/reports/${delivery.reportId}`}>
          The report
        </Link>
      )}
    </>
  );
}

function describeCondition(condition: FiredCondition): string {
  switch (condition.type) {
    case 'crawlFailed':
      return condition.error ? `Crawl failed: ${condition.error}` : 'Crawl failed';
    case 'scoreBelow':
      return `Score ${condition.score}, below ${condition.threshold}`;
    case 'scoreDropBy':
      return `Score fell from ${condition.previousScore} to ${condition.score}`;
    case 'newErrors':
      return `${condition.count} new error${condition.count === 1 ? '' : 's'}`;
  }
}
