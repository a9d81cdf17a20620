import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { distinctItems } from '../common/distinct-items.ts';
import { firstUnsafeCharacter, freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';

/**
 * The `<image_path>` of a CDN URL: slash-separated segments, no empty, `.` or `..` segment,
 * no backslash or control character, so a path can never climb out of its project.
 */
export const ImagePath = z
  .string()
  .min(1)
  .max(1024)
  // The rule of names (free-text.ts): a path is an image's name wherever it is listed.
  .refine(
    (path) => firstUnsafeCharacter(path) === undefined && !/[\\?#]/.test(path),
    'Must not contain control characters, invisible formatting characters such as bidi overrides, \\, ? or #.',
  )
  .refine(
    (path) => path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'),
    'Must be segments separated by single slashes, without leading or trailing slash, "." or "..".',
  )
  .describe('Where the image lives in its project, e.g. `blog/2026/cover.jpg`.');

export const Tag = freeText({ max: 100 });

export const Image = z
  .object({
    id: Id,
    path: z.string(),
    filename: z.string(),
    contentType: z.string(),
    fileSize: z.number().int().describe('Bytes of the original.'),
    width: z.number().int(),
    height: z.number().int(),
    format: z.string(),
    blurhash: z.string().nullable().describe('A compact placeholder (blurha.sh).'),
    altText: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    url: z.string().describe("The CDN URL of the original, absolute, on the instance's public address (LOUPE_PUBLIC_URL)."),
  })
  .meta({ id: 'Image' });
export type Image = z.infer<typeof Image>;

export const VariantsPurged = z
  .object({
    purged: z
      .number()
      .int()
      .nonnegative()
      .describe('Cached variants removed (the untransformed original served from the cache counts as one).'),
    bytesFreed: z.number().int().nonnegative().describe('Bytes the removed variants took in the cache.'),
  })
  .meta({ id: 'VariantsPurged' });
export type VariantsPurged = z.infer<typeof VariantsPurged>;

export const ImportImage = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).describe('An http(s) address to fetch the image from.'),
  path: ImagePath.optional().describe("Defaults to the URL's last path segment."),
});
export type ImportImage = z.infer<typeof ImportImage>;

/** The fields of a multipart upload besides `file`. */
export const UploadFields = z.strictObject({
  path: ImagePath.optional().describe("Defaults to the file's name."),
});

export const ListImagesQuery = z.strictObject({
  prefix: z
    .string()
    .min(1)
    .max(1024)
    // No path holds one, and PostgreSQL cannot compare text with a NUL in it.
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'Must not contain control characters.')
    .optional()
    .describe('Only images whose path starts with this.'),
  tag: Tag.optional().describe('Only images with this tag.'),
});

export const UpdateImage = atLeastOneField(
  z.strictObject({
    altText: freeText({ max: 1000, multiline: true }).nullable().optional(),
    tags: distinctItems(z.array(Tag).max(50), 'Tags must not repeat.').optional(),
  }),
  'Give at least one field to change.',
);
export type UpdateImage = z.infer<typeof UpdateImage>;

export const CreateUpload = z.strictObject({
  path: ImagePath.describe('Where the image will live once confirmed.'),
});
export type CreateUpload = z.infer<typeof CreateUpload>;

export const PendingUpload = z
  .object({
    imageId: z.uuid().describe('Pass it to upload/confirm after the PUT.'),
    uploadUrl: z
      .string()
      .describe('An absolute URL: PUT the file bytes here (no Authorization header needed); it works once, until expiresAt.'),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'PendingUpload' });
export type PendingUpload = z.infer<typeof PendingUpload>;

export const ConfirmUpload = z.strictObject({ imageId: Id });
export type ConfirmUpload = z.infer<typeof ConfirmUpload>;
