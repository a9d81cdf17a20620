import { LoupeError, type Transforms, transformFields, type ValidationDetails } from '@loupe/contract';
import { type CdnUrlOptions, cdnUrl } from './cdn-url.ts';

export interface ResponsiveSourcesOptions extends CdnUrlOptions {
  /** Widths in image pixels, one candidate each (`<url> <width>w`): 1 to 8192, as `w` takes. */
  widths: number[];
  /** The `sizes` attribute: the image's layout width per media condition. `100vw` by default. */
  sizes?: string;
  /**
   * Width ÷ height, for a preset with a fixed box (`fit: cover` at 300×200 is 1.5): each
   * candidate then sets `h` too, so a wider candidate keeps the box instead of only its width.
   */
  aspectRatio?: number;
  /**
   * Writes each candidate's URL; `cdnUrl` by default. An app that keeps the signing secret
   * on its server passes a function that asks the server to sign (the API's signUrl).
   */
  urlOf?: (options: CdnUrlOptions) => Promise<string>;
}

export interface ResponsiveSources {
  /** The fallback for clients without `srcset`: the widest candidate. */
  src: string;
  srcset: string;
  sizes: string;
}

const DEFAULT_SIZES = '100vw';

/**
 * `srcset` and `sizes` for an image over a list of widths, each URL signed when `sign` is
 * given. Every candidate sets `w` and `dpr=1` itself: the browser picks by the `w`
 * descriptor, so each URL must be exactly that many pixels wide whatever the preset's dpr,
 * and explicit parameters win over the CDN's client hints.
 *
 * @example
 * const { src, srcset, sizes } = await responsiveSources({
 *   baseUrl: 'https://img.example.com',
 *   project: 'blog',
 *   path: 'covers/spring.jpg',
 *   preset: 'card',
 *   widths: [320, 640, 960],
 *   sizes: '(min-width: 960px) 50vw, 100vw',
 * });
 */
export async function responsiveSources(options: ResponsiveSourcesOptions): Promise<ResponsiveSources> {
  const { widths, sizes = DEFAULT_SIZES, aspectRatio, urlOf = cdnUrl, ...url } = options;
  const details: ValidationDetails = { fieldErrors: {}, formErrors: [] };
  const fail = (field: string, message: string) => (details.fieldErrors[field] ??= []).push(message);
  if (widths.length === 0) fail('widths', 'Give at least one width.');
  for (const width of widths) {
    const parsed = transformFields.width.safeParse(width);
    if (!parsed.success) fail('widths', `${String(width)}: ${parsed.error.issues[0]?.message ?? 'Invalid width.'}`);
  }
  if (aspectRatio !== undefined && !(Number.isFinite(aspectRatio) && aspectRatio > 0)) fail('aspectRatio', 'Must be a number above 0.');
  if (sizes.trim() === '') fail('sizes', 'Must not be empty.');
  if (Object.keys(details.fieldErrors).length > 0) throw new LoupeError('validation_failed', { details });

  const ascending = [...new Set(widths)].sort((a, b) => a - b);
  const candidates = await Promise.all(
    ascending.map(async (width) => {
      const size: Partial<Transforms> = { width, dpr: 1 };
      if (aspectRatio !== undefined) size.height = Math.max(1, Math.round(width / aspectRatio));
      return { width, url: await urlOf({ ...url, transforms: { ...url.transforms, ...size } }) };
    }),
  );
  return {
    src: (candidates.at(-1) as { url: string }).url,
    srcset: candidates.map((candidate) => `${candidate.url} ${candidate.width}w`).join(', '),
    sizes,
  };
}
