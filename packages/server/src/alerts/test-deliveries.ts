import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { AlertDelivery } from '@loupe/contract';
import type { TestServer } from '../testing/test-server.ts';

/**
 * Reads a project's delivery log until `reached` holds for it, and answers it. Deliveries run
 * on the job queue with no event a client can follow, so the log is polled (every 50 ms),
 * bounded by `timeoutMs`: a state never reached fails the test with the log as it was.
 */
export async function waitForDeliveries(
  t: TestServer,
  projectId: string,
  reached: (deliveries: AlertDelivery[]) => boolean,
  options: { key?: string; team?: string; timeoutMs?: number } = {},
): Promise<AlertDelivery[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const answer = await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries?limit=100`, {
      key: options.key,
      team: options.team,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const deliveries = answer.body as AlertDelivery[];
    if (reached(deliveries)) return deliveries;
    if (Date.now() > deadline) assert.fail(`the delivery log never reached the expected state: ${JSON.stringify(deliveries, null, 1)}`);
    await delay(50);
  }
}

export const settled = (count: number) => (deliveries: AlertDelivery[]) =>
  deliveries.length >= count && deliveries.every((delivery) => delivery.status !== 'pending');
