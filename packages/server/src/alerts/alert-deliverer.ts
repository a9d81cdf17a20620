import type { AlertEvent } from '@loupe/contract';
import type { Logger } from 'pino';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import type { JobOutcome, JobQueue } from '../jobs/job-queue.ts';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { type AlertDeliveryRow, AlertDeliveryStore } from './alert-delivery-store.ts';
import { alertEmail } from './alert-email.ts';
import { AlertSettingsStore } from './alert-settings-store.ts';
import { deliveryJobKey } from './alert-trigger.ts';
import type { EmailSender } from './email-sender.ts';
import { type AttemptResult, sendWebhook } from './webhook-sender.ts';

/** Attempts per delivery, the first included; then it is failed. */
export const MAX_ALERT_ATTEMPTS = 6;
/** The longest wait between two attempts. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A job run this early (a rerun after a crash) waits for its time instead of attempting now. */
const EARLY_TOLERANCE_MS = 1_000;

/** The wait after failed attempt `attempt` (1-based): base, 2 × base, 4 × base… up to an hour. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** (attempt - 1));
}

export interface AlertDelivererOptions {
  database: Database;
  fetcher: GuardedFetcher;
  /** Null when no SMTP server is configured: email deliveries then fail, saying so. */
  email: EmailSender | null;
  jobs: JobQueue;
  retryBaseMs: number;
  log: Logger;
}

/**
 * Runs one attempt of an alert delivery (job `alert.deliver`). Retries are scheduled here,
 * each as a job of its own due after the backoff, rather than left to the queue: the
 * delivery log then counts every attempt, and the retry policy (6 attempts, doubling waits)
 * is the alerts' own, whatever the queue's. An attempt is claimed on the row before it is
 * made, so two runs for the same attempt send once.
 */
export class AlertDeliverer {
  readonly #options: AlertDelivererOptions;

  constructor(options: AlertDelivererOptions) {
    this.#options = options;
  }

  async deliver(deliveryId: string, signal: AbortSignal): Promise<JobOutcome> {
    const store = new AlertDeliveryStore(this.#options.database);
    const row = await store.byId(deliveryId);
    if (row?.status !== 'pending') return { kind: 'done' };
    const wait = row.next_attempt_at === null ? 0 : Date.parse(row.next_attempt_at) - Date.now();
    if (wait > EARLY_TOLERANCE_MS) return { kind: 'retry', after: wait, reason: 'the next attempt is not due yet' };
    if (!(await store.claim(row.id, row.attempts))) return { kind: 'done' };
    const attempt = row.attempts + 1;

    const result = await this.#attempt(row, signal);
    if (result.kind === 'delivered') {
      await store.settle(row.id, attempt, {
        status: 'delivered',
        delivered_at: now(),
        response_status: result.status,
        last_error: result.error,
        next_attempt_at: null,
      });
    } else if (result.kind === 'retry' && attempt < MAX_ALERT_ATTEMPTS) {
      const runAfter = new Date(Date.now() + retryDelayMs(attempt, this.#options.retryBaseMs));
      await store.settle(row.id, attempt, {
        response_status: result.status,
        last_error: result.error,
        next_attempt_at: runAfter.toISOString(),
      });
      await this.#options.jobs.send('alert.deliver', { deliveryId: row.id }, { runAfter, singletonKey: deliveryJobKey(row.id, attempt) });
    } else {
      await store.settle(row.id, attempt, {
        status: 'failed',
        response_status: result.status,
        last_error: result.error,
        next_attempt_at: null,
      });
      this.#options.log.warn({ deliveryId: row.id, attempt, error: result.error }, 'alert delivery failed');
    }
    return { kind: 'done' };
  }

  async #attempt(row: AlertDeliveryRow, signal: AbortSignal): Promise<AttemptResult> {
    // A channel removed from the settings since gets nothing more. A webhook is signed with its
    // secret as it is now, which is the one its receiver checks with.
    const channel = await new AlertSettingsStore(this.#options.database).channel(row.project_id, row.channel_id);
    if (!channel || channel.type !== row.channel_type) {
      return { kind: 'failed', status: null, error: 'The channel was removed from the alert settings.' };
    }
    if (channel.type === 'webhook') {
      return sendWebhook(this.#options.fetcher, { url: row.target, secret: channel.secret, body: row.payload, deliveryId: row.id, signal });
    }
    if (!this.#options.email) {
      return { kind: 'failed', status: null, error: 'No SMTP server is configured (LOUPE_SMTP_URL), so Loupe cannot send email.' };
    }
    const event = JSON.parse(row.payload) as AlertEvent;
    return this.#options.email.send({ to: row.target.split(', '), email: alertEmail(event), headers: { 'Loupe-Delivery': row.id } });
  }
}
