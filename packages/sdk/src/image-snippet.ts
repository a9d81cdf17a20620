import type { Transforms } from '@loupe/contract';
import { type ResponsiveSourcesOptions, responsiveSources } from './responsive-sources.ts';

export interface ImageSnippetOptions extends ResponsiveSourcesOptions {
  /** The `alt` text; an empty string marks a decorative image. */
  alt: string;
  /** The intrinsic size in CSS pixels, so the page reserves the space before the image loads. */
  width?: number;
  height?: number;
  /** `lazy` by default: most images are below the fold. */
  loading?: 'lazy' | 'eager';
  className?: string;
}

export interface PictureSnippetOptions extends ImageSnippetOptions {
  /** Modern formats offered first, in this order, as `<source type>`; the `<img>` keeps the preset's format. */
  formats: Array<'avif' | 'webp' | 'jxl'>;
}

/** Text for a double-quoted HTML attribute: URLs carry `&`, alt text anything. */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll("'", '&#39;');
}

function attributes(pairs: Array<[string, string | number | undefined]>): string {
  return pairs
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${attribute(String(value))}"`)
    .join('');
}

/**
 * An `<img>` with `srcset` and `sizes` over the given widths (signed when `sign` is given),
 * every attribute HTML-escaped.
 *
 * @example
 * const html = await imgSnippet({
 *   baseUrl: 'https://img.example.com',
 *   project: 'blog',
 *   path: 'covers/spring.jpg',
 *   preset: 'card',
 *   widths: [320, 640, 960],
 *   sizes: '(min-width: 960px) 50vw, 100vw',
 *   alt: 'Blossom in the park',
 * });
 */
export async function imgSnippet(options: ImageSnippetOptions): Promise<string> {
  const { src, srcset, sizes } = await responsiveSources(options);
  return `<img${attributes([
    ['src', src],
    ['srcset', srcset],
    ['sizes', sizes],
    ['alt', options.alt],
    ['width', options.width],
    ['height', options.height],
    ['loading', options.loading ?? 'lazy'],
    ['decoding', 'async'],
    ['class', options.className],
  ])}>`;
}

/**
 * A `<picture>` with one `<source>` per modern format (AVIF, WebP…) and the `<img>` as the
 * fallback, each over the same widths and `sizes`.
 *
 * @example
 * const html = await pictureSnippet({
 *   baseUrl: 'https://img.example.com',
 *   project: 'blog',
 *   path: 'covers/spring.jpg',
 *   widths: [320, 640],
 *   formats: ['avif', 'webp'],
 *   alt: '',
 * });
 */
export async function pictureSnippet(options: PictureSnippetOptions): Promise<string> {
  const { formats, ...img } = options;
  const sources = await Promise.all(
    [...new Set(formats)].map(async (format) => {
      const transforms: Partial<Transforms> = { ...img.transforms, format };
      const { srcset, sizes } = await responsiveSources({ ...img, transforms });
      return `<source${attributes([
        ['type', `image/${format}`],
        ['srcset', srcset],
        ['sizes', sizes],
      ])}>`;
    }),
  );
  return `<picture>${sources.join('')}${await imgSnippet(img)}</picture>`;
}
