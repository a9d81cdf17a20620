import { z } from 'zod';

const Dimensions = {
  width: z.number().int().positive(),
  height: z.number().int().positive(),
};

/**
 * What `?meta=json` answers on a CDN URL (issue #26, point 6): enough for a client to lay a
 * page out before the image loads, as imgix's `fm=json` and imgproxy's `/info` give.
 */
export const CdnImageInfo = z
  .object({
    ...Dimensions,
    format: z.string().describe('The original’s format: jpeg, png, webp, gif, avif, heif, tiff or svg.'),
    contentType: z.string().describe('The original’s media type.'),
    frames: z.number().int().positive().describe('Pages or animation frames; 1 for a still image.'),
    colourSpace: z.string().describe('As libvips names it: srgb, cmyk, b-w (greyscale), rgb16, …'),
    iccProfile: z
      .object({ description: z.string().nullable().describe('The profile’s own name, e.g. "Display P3".') })
      .nullable()
      .describe('The embedded ICC profile, or null when there is none (sRGB is assumed).'),
    hasAlpha: z.boolean(),
    dominantColour: z.string().describe('The most common colour of the first frame in sRGB, as `#rrggbb`.'),
    blurhash: z.string().nullable().describe('The placeholder stored at upload, or null.'),
    output: z
      .object({
        ...Dimensions,
        format: z.string(),
        contentType: z.string(),
        size: z.number().int().describe('Bytes.'),
      })
      .optional()
      .describe('What the same URL without `meta` serves, when it asks for transforms.'),
  })
  .describe('Width and height are the original’s as displayed (EXIF orientation applied).')
  .meta({ id: 'CdnImageInfo' });
export type CdnImageInfo = z.infer<typeof CdnImageInfo>;

/** `meta=json` asks for CdnImageInfo instead of the image; `meta` alone means the same. */
export const cdnMetaValues = ['', 'json'] as const;
