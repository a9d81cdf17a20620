import type { Image, ImageProject } from '@loupe/contract';
import { useQuery } from '../api/use-query.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { localCdnUrl, onThisOrigin, publicBaseOf } from './cdn-address.ts';

export type CdnAddress =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | {
      status: 'done';
      /** For `<img>` and fetch on this page: the same path on the dashboard's origin. */
      src: string;
      /** The public URL to copy (LOUPE_PUBLIC_URL's origin). */
      url: string;
      expiresAt: string | null;
    };

/**
 * The CDN address of an image with a query. A project that requires signed URLs (or
 * `signed: true`) has the server sign it (signUrl, which viewers may call too); otherwise
 * it is built here without a request.
 */
export function useCdnAddress(
  project: ImageProject,
  image: Pick<Image, 'path' | 'url'>,
  params: Record<string, string>,
  options: { signed?: boolean; expiresIn?: number } = {},
): CdnAddress {
  const { api } = useWorkspace();
  const signed = options.signed ?? project.requireSignedUrls;
  const key = JSON.stringify(params);
  const signing = useQuery(
    () =>
      signed
        ? api.signUrl({ projectId: project.id, body: { path: image.path, params, expiresIn: options.expiresIn } })
        : Promise.resolve(null),
    [api, signed, project.id, image.path, key, options.expiresIn],
  );
  if (!signed) {
    const src = localCdnUrl(project.slug, image.path, params);
    return { status: 'done', src, url: publicBaseOf(image.url) + src, expiresAt: null };
  }
  if (signing.status === 'loading') return { status: 'loading' };
  if (signing.status === 'failed') return { status: 'failed', error: signing.error };
  if (!signing.data) return { status: 'loading' };
  return { status: 'done', src: onThisOrigin(signing.data.url), url: signing.data.url, expiresAt: signing.data.expiresAt };
}
