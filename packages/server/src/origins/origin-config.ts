import type { ImageOrigin } from '@loupe/contract';

/** A project's origin as stored (image_projects.origin): the S3 secret included. */
export type StoredOrigin =
  | { kind: 'https'; baseUrl: string }
  | { kind: 's3'; endpoint: string; region: string; bucket: string; prefix: string; accessKeyId: string; secretAccessKey: string };

export function parseOrigin(json: string | null): StoredOrigin | null {
  return json === null ? null : (JSON.parse(json) as StoredOrigin);
}

/** What the API answers: everything but the secret. */
export function originView(origin: StoredOrigin | null): ImageOrigin['origin'] {
  if (origin === null) return null;
  if (origin.kind === 'https') return { kind: 'https', baseUrl: origin.baseUrl };
  const { secretAccessKey: _secret, ...rest } = origin;
  return { ...rest, hasSecret: true };
}
