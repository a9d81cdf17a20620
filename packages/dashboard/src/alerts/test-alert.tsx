import type { AlertDelivery } from '@loupe/contract';
import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../components/error-message.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { DeliveryStatus } from './delivery-status.tsx';

/** How long the screen follows a test alert before leaving it to the log (retries can take minutes). */
const FOLLOW_MS = 60_000;

/**
 * "Send test alert": queues one test alert per saved channel, then follows those deliveries
 * until each is delivered or failed, and says how each went.
 */
export function TestAlert({ projectId, unsaved, onSettled }: { projectId: string; unsaved: boolean; onSettled: () => void }) {
  const { api } = useWorkspace();
  const [deliveries, setDeliveries] = useState<AlertDelivery[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);

  const follow = async (queued: AlertDelivery[], signal: AbortSignal) => {
    const until = Date.now() + FOLLOW_MS;
    let wait = 300;
    let current = queued;
    while (current.some((delivery) => delivery.status === 'pending') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (signal.aborted) return;
      wait = Math.min(wait * 2, 2000);
      // Newest first: this test's deliveries are on the first page unless many alerts came since.
      const recent = await api.listAlertDeliveries({ projectId, limit: 50 }, { signal });
      current = current.map((delivery) => recent.find((each) => each.id === delivery.id) ?? delivery);
      setDeliveries(current);
    }
    onSettled();
  };

  const send = async () => {
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    setBusy(true);
    setError(null);
    setDeliveries(null);
    try {
      const queued = await api.sendTestAlert({ projectId });
      setDeliveries(queued);
      onSettled();
      if (queued.length > 0) await follow(queued, controller.signal);
    } catch (failure) {
      if (!controller.signal.aborted) setError(failure);
    } finally {
      if (!controller.signal.aborted) setBusy(false);
    }
  };

  return (
    <section className="card test-alert" aria-labelledby="test-alert-heading">
      <h2 id="test-alert-heading">Test alert</h2>
      <p className="muted small">Sends an alert marked as a test to every saved channel, whether or not alerts are on.</p>
      {unsaved && <p className="small">The settings have unsaved changes: the test goes to the channels as last saved.</p>}
      <button type="button" className="button" onClick={() => void send()} disabled={busy}>
        {busy ? 'Sending…' : 'Send test alert'}
      </button>
      {error !== null && <ErrorMessage error={error} />}
      <div role="status" aria-live="polite" className="test-result">
        {deliveries?.length === 0 && <p>No channel is saved: add a webhook or an email, save, then send a test.</p>}
        {deliveries && deliveries.length > 0 && (
          <ul className="plain-list">
            {deliveries.map((delivery) => (
              <li key={delivery.id}>
                {delivery.channel.type === 'webhook' ? 'Webhook' : 'Email'} <span className="muted">{delivery.channel.target}</span>:{' '}
                <DeliveryStatus delivery={delivery} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
