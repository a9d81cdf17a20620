import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { Timestamp } from '../common/resource.ts';
import { ImagePath } from './image.ts';

export const SigningSettings = z
  .object({
    enabled: z.boolean().describe('Whether the project has a signing secret in use.'),
    requireSignedUrls: z.boolean().describe('Whether unsigned CDN requests are refused (403).'),
    secretPreview: z.string().nullable().describe('The first characters of the current secret.'),
    previousSecretExpiresAt: Timestamp.nullable().describe('Until when the secret before the last rotation still verifies.'),
    signingSecret: z.string().optional().describe('The new secret: only in the answer that generated it.'),
  })
  .meta({ id: 'SigningSettings' });
export type SigningSettings = z.infer<typeof SigningSettings>;

export const UpdateSigning = atLeastOneField(
  z.strictObject({
    enabled: z.boolean().optional(),
    requireSignedUrls: z.boolean().optional().describe('true also enables signing.'),
    rotate: z.literal(true).optional().describe('Generate a new secret; the old one verifies for a grace period.'),
  }),
  'Give at least one field to change.',
)
  .refine((patch) => !(patch.enabled === false && patch.requireSignedUrls === true), {
    path: ['requireSignedUrls'],
    message: 'Cannot require signatures with signing disabled.',
  })
  // The same refusal in the JSON Schema, so the OpenAPI document refuses it too.
  .meta({
    not: { required: ['enabled', 'requireSignedUrls'], properties: { enabled: { const: false }, requireSignedUrls: { const: true } } },
  });
export type UpdateSigning = z.infer<typeof UpdateSigning>;

export const SignUrlRequest = z.strictObject({
  path: ImagePath,
  params: z
    .record(
      z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,31}$/),
      // A lone surrogate cannot be percent-encoded into the signed query.
      z.union([
        z
          .string()
          .max(200)
          .refine((value) => !/\p{Cs}/u.test(value), 'Must be well-formed Unicode (no lone surrogate).'),
        z.number(),
        z.boolean(),
      ]),
    )
    .refine((params) => !('s' in params) && !('exp' in params), 's and exp are set by the signer.')
    .default({})
    .describe('CDN query parameters, e.g. { "t": "thumb", "w": 300 }.'),
  expiresIn: z
    .number()
    .int()
    .min(1)
    .max(365 * 24 * 3600)
    .optional()
    .describe('Seconds until the URL stops working; omit for a URL that does not expire.'),
});
export type SignUrlRequest = z.infer<typeof SignUrlRequest>;

export const SignedUrl = z
  .object({
    url: z.string().describe('The absolute CDN URL, signed.'),
    signature: z.string(),
    expiresAt: Timestamp.nullable(),
  })
  .meta({ id: 'SignedUrl' });
export type SignedUrl = z.infer<typeof SignedUrl>;

export const UsageQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30).describe('How many days back, 1–90.'),
});

export const UsageDay = z
  .object({
    date: z.iso.date(),
    requests: z.number().int(),
    bytesServed: z.number().int(),
    transforms: z.number().int().describe('Variants computed (cache misses).'),
    cacheHitRatio: z.number().min(0).max(1).describe('Share of requests answered from the cache; 0 on a day without requests.'),
  })
  .meta({ id: 'UsageDay' });
export type UsageDay = z.infer<typeof UsageDay>;
