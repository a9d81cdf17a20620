import type { JobServices } from '../jobs/job-handlers.ts';
import type { JobHandlers } from '../jobs/job-queue.ts';
import { AlertDeliverer } from './alert-deliverer.ts';
import { EmailSender } from './email-sender.ts';

/** `alert.deliver`: one attempt of one alert on one channel; a failed attempt queues the next itself. */
export function alertJobHandlers(services: JobServices): Pick<JobHandlers, 'alert.deliver'> {
  const { config } = services;
  const deliverer = new AlertDeliverer({
    database: services.database,
    fetcher: services.fetcher,
    email: config.smtpUrl ? new EmailSender({ smtpUrl: config.smtpUrl, from: config.smtpFrom }) : null,
    jobs: services.jobs,
    retryBaseMs: config.alertRetryBaseMs,
    log: services.log,
  });
  return {
    'alert.deliver': ({ deliveryId }, context) => deliverer.deliver(deliveryId, context.signal),
  };
}
