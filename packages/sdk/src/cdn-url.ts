import {
  canonicalQuery,
  encodeImagePath,
  ImagePath,
  LoupeError,
  PresetName,
  rfc3986Encode,
  signCdnPath,
  type TransformName,
  type Transforms,
  transformFields,
  transformShortNames,
  type ValidationDetails,
} from '@loupe/contract';

export interface CdnUrlOptions {
  /** The CDN's origin, e.g. `https://img.example.com`. */
  baseUrl: string;
  /** The project's slug. */
  project: string;
  /** The image's path in its project, unencoded: `blog/2026/cover photo.jpg`. */
  path: string;
  /** A preset name, sent as `t`. */
  preset?: string;
  /** Ad-hoc transforms; they override the preset's (DESIGN.md §7). */
  transforms?: Partial<Transforms>;
  /** Answer the image's facts as JSON (`meta=json`, CdnImageInfo) instead of the image. */
  meta?: boolean;
  /**
   * Signs the URL with the project's secret. `expiresIn` (whole seconds from `now`) or
   * `expiresAt` adds `exp`, rounded down to the second so the URL never outlives what was
   * asked; with neither, the signature does not expire.
   */
  sign?: { secret: string; expiresIn?: number; expiresAt?: Date };
  /** The clock in milliseconds, `Date.now` by default. */
  now?: () => number;
}

/** The CDN query's short names (DESIGN.md §7); every other transform goes by its long name. */
/**
 * The CDN URL of an image, with a preset, ad-hoc transforms and, given the project's
 * secret, a signature. Invalid options throw a `validation_failed` LoupeError before
 * anything is signed. The query is in the signed (sorted) order, `s` last.
 *
 * @example
 * const url = await cdnUrl({
 *   baseUrl: 'https://img.example.com',
 *   project: 'blog',
 *   path: 'covers/spring.jpg',
 *   preset: 'thumb',
 *   transforms: { width: 300, format: 'webp' },
 *   sign: { secret: process.env.LOUPE_SIGNING_SECRET!, expiresIn: 3600 },
 * });
 */
export async function cdnUrl(options: CdnUrlOptions): Promise<string> {
  const details: ValidationDetails = { fieldErrors: {}, formErrors: [] };
  const fail = (field: string, message: string) => (details.fieldErrors[field] ??= []).push(message);

  if (options.project === '') fail('project', 'Must not be empty.');
  const path = ImagePath.safeParse(options.path);
  if (!path.success) for (const issue of path.error.issues) fail('path', issue.message);

  const params: Record<string, string> = {};
  if (options.preset !== undefined) {
    const preset = PresetName.safeParse(options.preset);
    if (preset.success) params.t = preset.data;
    else for (const issue of preset.error.issues) fail('preset', issue.message);
  }
  for (const [name, value] of Object.entries(options.transforms ?? {})) {
    if (value === undefined) continue;
    if (!Object.hasOwn(transformFields, name)) {
      fail(`transforms.${name}`, 'Unknown field.');
      continue;
    }
    const parsed = transformFields[name as TransformName].safeParse(value);
    if (parsed.success) params[transformShortNames[name as TransformName] ?? name] = String(parsed.data);
    else for (const issue of parsed.error.issues) fail(`transforms.${name}`, issue.message);
  }

  if (options.meta) params.meta = 'json';

  const sign = options.sign;
  if (sign) {
    if (sign.secret === '') fail('sign.secret', 'Must not be empty.');
    if (sign.expiresIn !== undefined && sign.expiresAt !== undefined) {
      fail('sign', 'Set expiresIn or expiresAt, not both.');
    } else if (sign.expiresIn !== undefined) {
      if (Number.isSafeInteger(sign.expiresIn) && sign.expiresIn > 0) {
        params.exp = String(Math.floor((options.now ?? Date.now)() / 1000) + sign.expiresIn);
      } else fail('sign.expiresIn', 'Must be a whole number of seconds, at least 1.');
    } else if (sign.expiresAt !== undefined) {
      const time = sign.expiresAt.getTime();
      if (Number.isFinite(time) && time >= 0) params.exp = String(Math.floor(time / 1000));
      else fail('sign.expiresAt', 'Must be a valid date after 1970.');
    }
  }
  if (Object.keys(details.fieldErrors).length > 0) throw new LoupeError('validation_failed', { details });

  const encodedPath = encodeImagePath(options.path);
  const query = canonicalQuery(params);
  const url = `${options.baseUrl.replace(/\/+$/, '')}/cdn/${rfc3986Encode(options.project)}/${encodedPath}`;
  if (!sign) return query ? `${url}?${query}` : url;
  const signature = await signCdnPath(sign.secret, options.project, encodedPath, params);
  return `${url}?${query ? `${query}&` : ''}s=${signature}`;
}
