import { z } from 'zod';

/** A base URL the CDN fetches missing images under: no credentials, query or fragment. */
const OriginBaseUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .refine((value) => {
    // zod runs refinements after a failed check too: an unparsable value is the url check's to report.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  }, 'Must be a base address without user, password, query or fragment.')
  .describe(
    'e.g. `https://www.example.com/images/`: an image path is appended to it. https only (the server may allow http to loopback for tests).',
  );

/** S3 bucket naming rules: 3–63 lowercase letters, digits, dots and hyphens; letter or digit at both ends; no `..`; not an IP. */
const BucketName = z
  .string()
  .min(3)
  .max(63)
  .regex(
    /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
    'Must be 3–63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit.',
  )
  .refine((bucket) => !bucket.includes('..') && !/^\d+\.\d+\.\d+\.\d+$/.test(bucket), 'Must not contain ".." nor be an IP address.');

const OriginPrefix = z
  .string()
  .max(512)
  .refine(
    (prefix) => !prefix.startsWith('/') && prefix.split('/').every((segment) => segment !== '.' && segment !== '..'),
    'Must not start with "/" nor contain "." or ".." segments.',
  )
  .refine((prefix) => !/[\p{Cc}\\]/u.test(prefix), 'Must not contain control characters or \\.');

/** Printable ASCII without spaces: what access key ids and secrets are made of. */
const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'Must be printable ASCII without spaces.');

const HttpsOriginInput = z.strictObject({ kind: z.literal('https'), baseUrl: OriginBaseUrl });

const S3OriginFields = {
  endpoint: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('The S3-compatible endpoint, e.g. `https://s3.eu-west-1.amazonaws.com`; https only. Requests use path-style addressing.'),
  region: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[a-z0-9-]+$/, 'Must be lowercase letters, digits and hyphens, e.g. us-east-1 or auto.'),
  bucket: BucketName,
  prefix: OriginPrefix.default('').describe('Prepended to the image path to make the object key, e.g. `photos/`.'),
  accessKeyId: printable(128),
};

const S3OriginInput = z.strictObject({
  kind: z.literal('s3'),
  ...S3OriginFields,
  secretAccessKey: printable(256)
    .optional()
    .describe(
      'Write-only: never answered. May be left out to keep the stored one when endpoint and accessKeyId are unchanged (otherwise 409 origin_secret_required).',
    ),
});

export const ImageOriginInput = z.discriminatedUnion('kind', [HttpsOriginInput, S3OriginInput]);
export type ImageOriginInput = z.infer<typeof ImageOriginInput>;

export const SetImageOrigin = z.strictObject({
  origin: ImageOriginInput.nullable().describe('Where missing images are fetched from; null removes the origin.'),
});
export type SetImageOrigin = z.infer<typeof SetImageOrigin>;

export const ImageOrigin = z
  .object({
    origin: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('https'), baseUrl: z.string() }),
        z.object({
          kind: z.literal('s3'),
          endpoint: z.string(),
          region: z.string(),
          bucket: z.string(),
          prefix: z.string(),
          accessKeyId: z.string(),
          hasSecret: z.literal(true).describe('The secret access key is stored; it is never answered.'),
        }),
      ])
      .nullable()
      .describe('null when the project has no origin: a missing image is then 404.'),
  })
  .meta({ id: 'ImageOrigin' });
export type ImageOrigin = z.infer<typeof ImageOrigin>;
