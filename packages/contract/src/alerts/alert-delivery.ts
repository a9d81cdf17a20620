import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';
import { CrawlStatus } from '../crawls/crawl.ts';
import { Grade } from '../reports/report.ts';

/** How many new errors an alert names; the count covers them all. */
export const MAX_NEW_ERROR_EXAMPLES = 10;

const Score = z.number().int().min(0).max(100);

/** A condition that fired for a crawl, with the figures that made it fire. */
export const FiredCondition = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('crawlFailed'), error: z.string().nullable().describe('Why the crawl failed.') }),
    z.object({ type: z.literal('scoreBelow'), threshold: Score, score: Score }),
    z.object({
      type: z.literal('scoreDropBy'),
      threshold: Score,
      score: Score,
      previousScore: Score,
      previousReportId: Id,
    }),
    z.object({
      type: z.literal('newErrors'),
      count: z.number().int().min(1).describe('Error findings, by rule and URL, absent from the previous report.'),
      previousReportId: Id,
      examples: z
        .array(z.object({ ruleId: z.string(), url: z.string().nullable().describe('Null for a site-level finding.') }))
        .max(MAX_NEW_ERROR_EXAMPLES),
    }),
  ])
  .meta({ id: 'FiredCondition' });
export type FiredCondition = z.infer<typeof FiredCondition>;

export const AlertDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export type AlertDeliveryStatus = z.infer<typeof AlertDeliveryStatus>;

/** One alert sent (or being sent) on one channel: the delivery log's row. */
export const AlertDelivery = z
  .object({
    id: Id.describe('Also sent in the Loupe-Delivery header: a receiver can drop a repeat.'),
    channel: z.object({
      id: Id,
      type: z.enum(['webhook', 'email']),
      target: z.string().describe('The webhook URL, or the recipients separated by ", ".'),
    }),
    crawlId: Id.nullable().describe('The crawl whose end fired it; null for a test alert.'),
    reportId: Id.nullable(),
    test: z.boolean(),
    conditions: z.array(FiredCondition).describe('Every condition that fired; empty for a test alert.'),
    status: AlertDeliveryStatus.describe('pending until delivered, or failed once retries ran out or the failure was final.'),
    attempts: z.number().int().min(0),
    lastError: z.string().nullable(),
    responseStatus: z.number().int().nullable().describe("The webhook's last HTTP status, or the SMTP server's last reply code."),
    nextAttemptAt: Timestamp.nullable().describe('While pending after a failed attempt: when the next one is due.'),
    createdAt: Timestamp,
    deliveredAt: Timestamp.nullable(),
  })
  .meta({ id: 'AlertDelivery' });
export type AlertDelivery = z.infer<typeof AlertDelivery>;

export const ListAlertDeliveriesQuery = z.strictObject({
  status: AlertDeliveryStatus.optional().describe('Only deliveries in this state; by default all, newest first.'),
});

/**
 * The JSON body a webhook receives (and what an alert email says). Verify the
 * `Loupe-Signature` header over the raw body before trusting it (verifyWebhookSignature).
 */
export const AlertEvent = z
  .object({
    event: z.literal('crawl.alert'),
    deliveryId: Id,
    test: z.boolean().describe('A test alert asked for by a person: no crawl, no conditions.'),
    project: z.object({ id: Id, name: z.string(), siteUrl: z.string() }),
    crawl: z.object({ id: Id, status: CrawlStatus, url: z.string(), finishedAt: Timestamp.nullable() }).nullable(),
    report: z
      .object({
        id: Id,
        score: Score.nullable(),
        grade: Grade.nullable(),
        completeness: z.enum(['complete', 'partial']),
        pages: z.number().int(),
        errors: z.number().int(),
        warnings: z.number().int(),
        notices: z.number().int(),
      })
      .nullable(),
    previousReport: z
      .object({ id: Id, score: Score.nullable(), grade: Grade.nullable(), createdAt: Timestamp })
      .nullable()
      .describe("The project's report before this one."),
    conditions: z.array(FiredCondition),
    createdAt: Timestamp,
  })
  .meta({ id: 'AlertEvent' });
export type AlertEvent = z.infer<typeof AlertEvent>;
