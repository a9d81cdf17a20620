import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';

/** Alert settings of an audit project (DESIGN.md §8): when to alert, and where. */

export const MAX_ALERT_CHANNELS = 5;
export const MAX_ALERT_RECIPIENTS = 10;

const conditionFields = {
  crawlFailed: z.boolean().describe('Alert when a crawl of the project fails.'),
  scoreBelow: z
    .number()
    .int()
    .min(0)
    .max(100)
    .nullable()
    .describe("Alert when a report's health score is below this (0 never fires); null: off."),
  scoreDropBy: z
    .number()
    .int()
    .min(1)
    .max(100)
    .nullable()
    .describe("Alert when the score fell by at least this many points since the project's previous scored report; null: off."),
  newErrors: z
    .boolean()
    .describe("Alert when error-level findings (by rule and URL) appear that the project's previous report did not have."),
};

export const AlertConditions = z.object(conditionFields).meta({ id: 'AlertConditions' });
export type AlertConditions = z.infer<typeof AlertConditions>;

const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .describe('Receives a POST of the alert as JSON, signed in the Loupe-Signature header.');

const WebhookSecret = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces.')
  .describe('Keys the HMAC-SHA256 of the Loupe-Signature header, 16–128 characters.');

const Recipients = z
  .array(z.email().max(254))
  .min(1)
  .max(MAX_ALERT_RECIPIENTS)
  .refine((to) => new Set(to.map((address) => address.toLowerCase())).size === to.length, 'Recipients must not repeat.');

export const WebhookChannel = z
  .object({
    id: Id,
    type: z.literal('webhook'),
    url: z.string(),
    secretPreview: z.string().describe('The first characters of the secret.'),
    secret: z.string().optional().describe('The secret Loupe generated for this channel: only in the answer that generated it.'),
  })
  .meta({ id: 'WebhookChannel' });

export const EmailChannel = z
  .object({
    id: Id,
    type: z.literal('email'),
    to: z.array(z.string()),
  })
  .meta({ id: 'EmailChannel' });

export const AlertChannel = z.discriminatedUnion('type', [WebhookChannel, EmailChannel]);
export type AlertChannel = z.infer<typeof AlertChannel>;

export const AlertSettings = z
  .object({
    projectId: Id,
    enabled: z.boolean().describe('Alerts are sent only while this is true (test alerts always are).'),
    conditions: AlertConditions,
    channels: z.array(AlertChannel).max(MAX_ALERT_CHANNELS),
    updatedAt: Timestamp.nullable().describe('Null while the settings were never saved (the defaults: disabled, no channels).'),
  })
  .meta({ id: 'AlertSettings' });
export type AlertSettings = z.infer<typeof AlertSettings>;

const KeepChannelId = Id.optional().describe(
  'The id of a channel of the same type in the current settings, to keep it (and a webhook its secret); without it the channel is new.',
);

export const WebhookChannelInput = z.strictObject({
  type: z.literal('webhook'),
  id: KeepChannelId,
  url: WebhookUrl,
  secret: WebhookSecret.optional().describe(
    'The HMAC key, 16–128 characters. Left out: a kept channel keeps its secret, a new one gets a generated secret, shown once in the answer.',
  ),
});

export const EmailChannelInput = z.strictObject({
  type: z.literal('email'),
  id: KeepChannelId,
  to: Recipients.describe(`1–${MAX_ALERT_RECIPIENTS} addresses.`),
});

export const AlertChannelInput = z.discriminatedUnion('type', [WebhookChannelInput, EmailChannelInput]);
export type AlertChannelInput = z.input<typeof AlertChannelInput>;

/** PUT replaces the settings whole; a condition left out is off. */
export const UpdateAlertSettings = z.strictObject({
  enabled: z.boolean(),
  conditions: z.strictObject({
    crawlFailed: conditionFields.crawlFailed.default(false),
    scoreBelow: conditionFields.scoreBelow.default(null),
    scoreDropBy: conditionFields.scoreDropBy.default(null),
    newErrors: conditionFields.newErrors.default(false),
  }),
  channels: z
    .array(AlertChannelInput)
    .max(MAX_ALERT_CHANNELS)
    .refine((channels) => {
      const ids = channels.flatMap((channel) => (channel.id ? [channel.id] : []));
      return new Set(ids).size === ids.length;
    }, 'A channel id must not repeat.')
    .describe(`Up to ${MAX_ALERT_CHANNELS} channels; each alert goes to every one.`),
});
export type UpdateAlertSettings = z.input<typeof UpdateAlertSettings>;
