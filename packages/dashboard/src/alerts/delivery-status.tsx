import type { AlertDelivery } from '@loupe/contract';

/** How a delivery went, in words: delivered with the receiver's status, failed with why, or still trying. */
export function DeliveryStatus({ delivery }: { delivery: AlertDelivery }) {
  const code =
    delivery.responseStatus === null
      ? ''
      : delivery.channel.type === 'webhook'
        ? `HTTP ${delivery.responseStatus}`
        : `SMTP ${delivery.responseStatus}`;
  if (delivery.status === 'delivered') return <span className="badge good">Delivered{code && ` (${code})`}</span>;
  if (delivery.status === 'failed') {
    return (
      <>
        <span className="badge bad">Failed{code && ` (${code})`}</span>
        {delivery.lastError && <span className="small"> {delivery.lastError}</span>}
      </>
    );
  }
  return (
    <>
      <span className="badge waiting">Pending</span>
      {delivery.attempts > 0 && (
        <span className="small muted">
          {' '}
          {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'} so far{delivery.lastError && `: ${delivery.lastError}`}
        </span>
      )}
    </>
  );
}
