import { z } from 'zod';
import type { ErrorCode } from '../common/errors.ts';
import { CdnImageInfo } from './cdn-image-info.ts';
import { type TransformName, transformFields, transformShortNames } from './transforms.ts';

type JsonSchema = Record<string, unknown>;

/** The path the CDN serves images at (spec §4); not a registry operation: it answers bytes, not JSON. */
export const cdnDeliveryPath = '/cdn/{projectSlug}/{imagePath}';

/** What a CDN request can be refused with, by status. */
export const cdnDeliveryErrors: readonly ErrorCode[] = [
  'validation_failed',
  'output_too_large',
  'animation_too_large',
  'signature_required',
  'signature_invalid',
  'signature_expired',
  // An image fetched from the project's origin is stored as an upload would be.
  'plan_limit_reached',
  'not_found',
  'headers_too_large',
  'internal_error',
  'overloaded',
  'transform_timeout',
  'not_ready',
  'origin_failed',
  'origin_timeout',
  'insufficient_storage',
];

const query = (name: string, description: string, schema: JsonSchema): JsonSchema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** A transform's query parameters: its long name, and its short one (DESIGN.md §7) when it has one. */
function transformParameters(field: TransformName): JsonSchema[] {
  const { description, ...schema } = z.toJSONSchema(transformFields[field], { io: 'input' }) as JsonSchema;
  delete schema.$schema;
  const short = transformShortNames[field];
  const said = `${String(description ?? '')} Overrides the preset's.`;
  return [
    query(field, short ? `${said} Short name: \`${short}\`.` : said, schema),
    ...(short ? [query(short, `Same as \`${field}\`.`, schema)] : []),
  ];
}

/**
 * The OpenAPI path item of CDN delivery: parameters (preset, ad-hoc transforms, signature),
 * answers (the image, 304 to a matching If-None-Match, the error bodies) and their headers.
 */
export function cdnDeliveryPathItem(
  errorResponses: (codes: readonly ErrorCode[]) => Record<string, unknown>,
  /** A named schema as the document holds it (a reference into its components). */
  schemaOf: (schema: z.ZodType) => JsonSchema,
): JsonSchema {
  const transforms = (Object.keys(transformFields) as TransformName[]).flatMap(transformParameters);
  const cacheHeaders = {
    ETag: { description: 'The variant: its original and every transform.', schema: { type: 'string' } },
    'Cache-Control': { description: '`public, max-age=31536000, immutable`: a URL never changes its bytes.', schema: { type: 'string' } },
    'X-Cache': { description: '`HIT` when the variant was cached, `MISS` when it was computed now.', schema: { type: 'string' } },
    Vary: { description: '`Accept` when the format was negotiated (`format=auto`).', schema: { type: 'string' } },
  };
  return {
    get: {
      operationId: 'deliverImage',
      summary: 'Deliver an image',
      description:
        "Serves an image of a project, transformed by a named preset (`t`) and ad-hoc transform parameters (which override the preset's), as `/cdn/<slug>/<path>` or `/<path>` on the project's custom domain. When the project signs URLs, `s` is the lowercase hex HMAC-SHA256 with the project's secret of `/<slug>/<path>?<query>` (every parameter but `s`, RFC 3986-encoded, sorted by name, joined by `&`), and `exp` the Unix second it expires at; signUrl builds such URLs. Unknown, repeated or out-of-range parameters are 400. No API key needed.",
      security: [],
      tags: ['Delivery'],
      parameters: [
        { name: 'projectSlug', in: 'path', required: true, description: "The project's slug.", schema: { type: 'string', minLength: 1 } },
        {
          name: 'imagePath',
          in: 'path',
          required: true,
          description: "The image's path in the project; may contain `/` (segments RFC 3986-encoded).",
          schema: { type: 'string', minLength: 1 },
        },
        query('t', 'A preset of the project, by name.', { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }),
        ...transforms,
        query('s', 'The URL signature: lowercase hex HMAC-SHA256 (see the description).', { type: 'string' }),
        query('exp', 'When a signed URL expires, in Unix seconds; covered by the signature.', { type: 'string', pattern: '^[0-9]{1,15}$' }),
        query('v', 'Any value, to make a new URL (and cache entry) for the same image; covered by a signature.', { type: 'string' }),
        query(
          'meta',
          'Answer JSON facts about the image instead of the image: its size as displayed, format, frames, colour space, ICC profile, alpha, dominant colour and blurhash, and the output’s size and format when transforms are given. `meta` alone or `meta=json`; signed and cached like the image.',
          { type: 'string', enum: ['', 'json'] },
        ),
        { name: 'Accept', in: 'header', required: false, description: 'Chooses the format when it is `auto`.', schema: { type: 'string' } },
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An ETag: 304 when it is the variant’s.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: {
          description: 'The image, in the format asked for, negotiated, or its own.',
          headers: {
            ...cacheHeaders,
            'Content-Security-Policy': { description: 'Keeps an SVG served as is from running anything.', schema: { type: 'string' } },
          },
          content: {
            'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
            'application/json': { schema: schemaOf(CdnImageInfo) },
          },
        },
        304: { description: 'Not modified: If-None-Match names this variant.', headers: cacheHeaders },
        ...errorResponses(cdnDeliveryErrors),
      },
    },
  };
}
