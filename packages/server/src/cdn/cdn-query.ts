import {
  addFieldError,
  cdnMetaValues,
  LoupeError,
  type TransformName,
  type Transforms,
  transformFields,
  transformShortNames,
  type ValidationDetails,
} from '@loupe/contract';

/** Query name → field: the short names of DESIGN.md §7, and every long name of the transform table. */
const FIELD_BY_NAME = new Map<string, TransformName>([
  ...(Object.keys(transformFields) as TransformName[]).map((field) => [field, field] as const),
  ...Object.entries(transformShortNames).map(([field, short]) => [short as string, field as TransformName] as const),
]);

/**
 * Parameters that are not transforms: the preset, the signature and its expiry, a
 * cache-busting version, and `meta` (answer CdnImageInfo instead of the image).
 */
const RESERVED = new Set(['t', 's', 'exp', 'v', 'meta']);

/** Numbers as JavaScript prints them (the SDK writes `String(n)`), e.g. `12`, `-0.5`, `1e-7`. */
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

export interface CdnQuery {
  preset?: string;
  /** Ad-hoc transforms, validated to the ranges of spec §2; they override the preset's. */
  transforms: Partial<Transforms>;
  /** Every parameter as sent, for signature checks. */
  params: Record<string, string>;
  /** `meta` or `meta=json`: the image's facts as JSON, not the image. */
  meta: boolean;
}

/** A query value as the type its field's schema takes: query strings carry only text. */
function coerce(field: TransformName, value: string): unknown {
  const type = (transformFields[field] as { def: { type: string } }).def.type;
  if (type === 'boolean') return BOOLEANS[value] ?? value;
  // Text stays text: `bg=000000` and an overlay path named `2026` are not numbers.
  if (type === 'string') return value;
  return NUMBER.test(value) ? Number(value) : value;
}

/**
 * Reads a CDN query (DESIGN.md §7). Unknown, repeated or out-of-range parameters are 400
 * with the API's error body, keyed by the name the caller used.
 */
export function parseCdnQuery(search: URLSearchParams): CdnQuery {
  const details: ValidationDetails = { fieldErrors: {}, formErrors: [] };
  const fail = (name: string, message: string) => addFieldError(details, name, message);
  // A Map, not an object: `__proto__` or `constructor` in a query must stay plain data.
  const params = new Map<string, string>();
  const transforms: Record<string, unknown> = {};
  const seen = new Map<TransformName, string>();

  for (const [name, value] of search) {
    if (params.has(name)) {
      fail(name, 'Give each parameter once.');
      continue;
    }
    params.set(name, value);
    if (RESERVED.has(name)) continue;
    const field = FIELD_BY_NAME.get(name);
    if (!field) {
      fail(name, 'Unknown parameter.');
      continue;
    }
    const other = seen.get(field);
    if (other) {
      fail(name, `Same parameter as ${other}.`);
      continue;
    }
    seen.set(field, name);
    const parsed = transformFields[field].safeParse(coerce(field, value));
    if (parsed.success) transforms[field] = parsed.data;
    else fail(name, parsed.error.issues[0]?.message ?? 'Invalid value.');
  }
  const preset = params.get('t');
  if (preset !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(preset)) fail('t', 'Not a preset name.');
  const meta = params.get('meta');
  if (meta !== undefined && !(cdnMetaValues as readonly string[]).includes(meta)) fail('meta', 'Give meta alone or meta=json.');
  if (Object.keys(details.fieldErrors).length > 0) throw new LoupeError('validation_failed', { details });
  return { preset, transforms: transforms as Partial<Transforms>, params: Object.fromEntries(params), meta: meta !== undefined };
}
