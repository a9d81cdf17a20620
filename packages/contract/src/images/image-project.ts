import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { enlargements } from './transforms.ts';

const ProjectName = freeText({ max: 100 });

/** A hostname: dot-separated labels of letters, digits and inner hyphens, 253 characters at most. */
const CustomDomain = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/i,
    'Must be a hostname such as images.example.com.',
  )
  .transform((domain) => domain.toLowerCase());

const ProjectEnlarge = z
  .enum(enlargements)
  .describe(
    "The default of the transform parameter `enlarge` for this project's URLs and presets, which may override it: `allow` (new projects) makes the asked size even from a smaller original, `never` never makes the picture larger than the original.",
  );

/** Issue #26 point 3: responsive delivery by client hints, opt-in per project. */
const ClientHints = z
  .boolean()
  .describe(
    'CDN answers honour the client hints Sec-CH-DPR, Sec-CH-Width (and legacy DPR, Width) and Save-Data, and announce them in Accept-CH. Explicit URL parameters win over hints.',
  );

/** Issue #26 point 6: metadata is stripped for privacy unless a project keeps it. */
const KeepMetadata = z
  .boolean()
  .describe(
    'Whether CDN answers keep the original’s EXIF (GPS included), XMP and IPTC. Off by default for privacy: outputs and originals are served without them. Colours are always converted to sRGB; with this on, outputs also carry an sRGB ICC profile.',
  );

export const ImageProject = z
  .object({
    id: Id,
    name: z.string(),
    slug: z.string().describe('Unique, generated from the name; used in CDN URLs. Never changes.'),
    customDomain: z.string().nullable(),
    plan: z.string().describe("The workspace's plan."),
    requireSignedUrls: z.boolean(),
    enlarge: ProjectEnlarge,
    clientHints: ClientHints,
    keepMetadata: KeepMetadata,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'ImageProject' });
export type ImageProject = z.infer<typeof ImageProject>;

export const ImageProjectStats = z.object({
  imageCount: z.number().int(),
  totalSize: z.number().int().describe('Bytes of all original images.'),
});

export const ImageProjectWithStats = ImageProject.extend({ stats: ImageProjectStats }).meta({
  id: 'ImageProjectWithStats',
});
export type ImageProjectWithStats = z.infer<typeof ImageProjectWithStats>;

export const CreateImageProject = z.strictObject({ name: ProjectName });
export type CreateImageProject = z.infer<typeof CreateImageProject>;

export const UpdateImageProject = atLeastOneField(
  z.strictObject({
    name: ProjectName.optional(),
    customDomain: CustomDomain.nullable().optional().describe('A hostname that serves this project, or null.'),
    enlarge: ProjectEnlarge.optional(),
    clientHints: ClientHints.optional(),
    keepMetadata: KeepMetadata.optional(),
  }),
  'Give at least one field to change.',
);
export type UpdateImageProject = z.infer<typeof UpdateImageProject>;
