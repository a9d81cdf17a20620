import { ImagePath, LoupeError, type Transforms, verifyCdnSignature } from '@loupe/contract';
import type { BlobStore } from '../blobs/blob-store.ts';
import { now } from '../clock.ts';
import { isProjectSlug } from '../images/slug.ts';
import { parseOrigin } from '../origins/origin-config.ts';
import type { OriginPuller } from '../origins/origin-puller.ts';
import { assertAnimationWithinBound } from '../transform/animation-bound.ts';
import { ImageDecodeError } from '../transform/image-decode-error.ts';
import { assertOutputWithinBound, outputSize } from '../transform/output-bound.ts';
import { ANIMATED_FORMATS, type OutputFormat, type PipelineOptions, transformImage } from '../transform/transform-pipeline.ts';
import { animationFrames } from './animation-frames.ts';
import { type CdnQuery, parseCdnQuery } from './cdn-query.ts';
import { applyClientHints, type ClientHints } from './client-hints.ts';
import type { DeliveryImage, DeliveryProject, DeliveryStore } from './delivery-store.ts';
import { negotiateFormat } from './format-negotiation.ts';
import { describeOriginal, describeOutput } from './image-info.ts';
import { findOverlay } from './overlay-lookup.ts';
import { privateOriginal } from './private-original.ts';
import type { QualityChooser } from './quality-chooser.ts';
import { resolveEnlarge } from './resolve-enlarge.ts';
import type { TransformLimiter } from './transform-limiter.ts';
import type { UsageRecorder } from './usage-recorder.ts';
import type { Variant, VariantCache } from './variant-cache.ts';

export interface DeliveryRequest {
  project: { slug: string } | { domain: string };
  /** The image path as it appears in the URL (percent-encoded segments): what signatures cover. */
  encodedPath: string;
  search: URLSearchParams;
  accept?: string;
  ifNoneMatch?: string;
  /** Honoured only when the project turns client hints on. */
  hints?: ClientHints;
  /** Called once the project is known, before anything can fail for this URL (its errors carry Accept-CH too). */
  onProject?: (project: DeliveryProject) => void;
}

export interface Delivery {
  variant: Variant;
  /** The answer depends on Accept (format=auto). */
  varyOnAccept: boolean;
  /** The client hint headers this URL's answer depends on (empty when the project has hints off). */
  varyOnHints: string[];
  cacheStatus: 'hit' | 'miss';
  /** `If-None-Match` names this variant: the answer is 304 without a body. */
  notModified: boolean;
}

export interface DeliveryDependencies {
  store: DeliveryStore;
  blobs: BlobStore;
  cache: VariantCache;
  limiter: TransformLimiter;
  usage: UsageRecorder;
  quality: QualityChooser;
  pipeline: Omit<PipelineOptions, 'maxInputPixels' | 'timeoutSeconds' | 'overlay'>;
  maxInputPixels: number;
  /** LOUPE_MAX_OUTPUT_PIXELS: larger outputs are refused before anything is decoded. */
  maxOutputPixels: number;
  timeoutSeconds: number;
  /** Brings a missing image from the project's origin, when it has one (origins/origin-puller.ts). */
  origins?: Pick<OriginPuller, 'pull'>;
}

const OUTPUT_FORMATS = new Set<string>(['jpeg', 'png', 'webp', 'avif', 'gif']);
/**
 * Part of every variant key: raise it when the pipeline's output for the same transforms
 * changes (a new mapping, encoder or setting), so cached variants and their ETags renew.
 */
const PIPELINE_VERSION = 2;
/** Part of every `?meta` answer's key: raise it when the facts it gives change. */
const INFO_VERSION = 1;
/** Reads of an image record when its original vanished under a request (replaced meanwhile). */
const REPLACED_RETRIES = 3;
const notFound = () => new LoupeError('not_found', { message: 'No such image.' });
const transformTimeout = () => new LoupeError('transform_timeout', { extra: { retryAfter: 5 } });

/** `If-None-Match` holds the tag (weak comparison, RFC 9110 §13.1.2), or `*`. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etag);
}

/** Every cached variant of an original has a key starting with this: purging by it drops them all. */
export function variantKeyPrefix(blobKey: string): string {
  return `${blobKey}|`;
}

/** `a/b%20c.jpg` → `a/b c.jpg`, or undefined when it is not a valid image path. */
function decodeImagePath(encodedPath: string): string | undefined {
  try {
    const segments = encodedPath.split('/').map(decodeURIComponent);
    // `a%2Fb.png` is one segment with a slash in it, which no image path has; not `a/b.png`.
    if (segments.some((segment) => segment.includes('/'))) return undefined;
    const path = segments.join('/');
    return ImagePath.safeParse(path).success ? path : undefined;
  } catch {
    return undefined;
  }
}

function needsAlpha(image: DeliveryImage, rest: Partial<Transforms>): boolean {
  return image.hasAlpha || rest.radius !== undefined || (rest.fit === 'pad' && rest.bg === undefined);
}

/** Without `format`: the original's own when it is an output format, else PNG for alpha, else JPEG. */
function defaultFormat(image: DeliveryImage, rest: Partial<Transforms>): OutputFormat {
  if (OUTPUT_FORMATS.has(image.format)) return image.format as OutputFormat;
  return needsAlpha(image, rest) ? 'png' : 'jpeg';
}

/** Sorted keys, so the same transforms always make the same cache key. */
function canonicalJson(transforms: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(transforms).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/**
 * Serves `/cdn/<slug>/<path>?t=<preset>&…` (spec §4, DESIGN.md §7): checks the signature
 * when the project requires one, applies the preset with ad-hoc overrides, negotiates
 * the format, and answers from the variant cache, transforming once per distinct variant.
 */
export class DeliveryService {
  readonly #dependencies: DeliveryDependencies;

  constructor(dependencies: DeliveryDependencies) {
    this.#dependencies = dependencies;
  }

  async deliver(request: DeliveryRequest): Promise<Delivery> {
    const at = now();
    if ('slug' in request.project && !isProjectSlug(request.project.slug)) throw notFound();
    const project = await this.#dependencies.store.project(request.project, at);
    if (!project) throw notFound();
    request.onProject?.(project);
    const query = parseCdnQuery(request.search);
    await this.#checkSignature(project, request.encodedPath, query.params, at);

    const path = decodeImagePath(request.encodedPath);
    if (path === undefined) throw notFound();
    const held = await this.#dependencies.store.image(project.id, path);
    // A request refused anyway (an unknown preset) must not fetch and store anything from the origin.
    const checkedFirst = held || project.origin === null ? undefined : await this.#transforms(project.id, query);
    const image = held ?? (await this.#fromOrigin(project, path));
    if (!image) throw notFound();
    const transforms = resolveEnlarge(checkedFirst ?? (await this.#transforms(project.id, query)), project.enlarge);

    const hints = project.clientHints && request.hints ? { hints: request.hints, explicit: query.transforms } : undefined;
    const { variant, source, varyOnAccept, varyOnHints } = await this.#variantOfCurrent(
      project.id,
      path,
      image,
      transforms,
      query.params,
      request.accept,
      hints,
      { meta: query.meta, keepMetadata: project.keepMetadata },
    );
    const cacheHit = source === 'memory' || source === 'disk';
    const notModified = matchesEtag(request.ifNoneMatch, variant.etag);
    this.#dependencies.usage.record(project.id, {
      bytes: notModified ? 0 : variant.data.length,
      transformed: source === 'computed',
      cacheHit,
    });
    return { variant, varyOnAccept, varyOnHints, cacheStatus: cacheHit ? 'hit' : 'miss', notModified };
  }

  /** The preset's transforms with the ad-hoc ones over them; 400 for a preset the project lacks. */
  async #transforms(projectId: string, query: CdnQuery): Promise<Partial<Transforms>> {
    if (query.preset === undefined) return query.transforms;
    const preset = await this.#dependencies.store.presetTransforms(projectId, query.preset);
    if (!preset) {
      throw new LoupeError('validation_failed', {
        message: `No preset named "${query.preset}" in this project.`,
        details: { fieldErrors: { t: [`No preset named "${query.preset}".`] }, formErrors: [] },
      });
    }
    return { ...preset, ...query.transforms };
  }

  /** The image fetched from the project's origin and stored, after the signature was checked; undefined when there is none. */
  async #fromOrigin(project: DeliveryProject, path: string): Promise<DeliveryImage | undefined> {
    const origin = parseOrigin(project.origin);
    if (!origin || !this.#dependencies.origins) return undefined;
    if (!(await this.#dependencies.origins.pull(project, origin, path))) return undefined;
    return this.#dependencies.store.image(project.id, path);
  }

  /**
   * The image (or its overlay) may be replaced between reading its record and reading its
   * original (the old original is deleted once the new one is in): then the records are read
   * again, a few times.
   */
  async #variantOfCurrent(
    projectId: string,
    path: string,
    image: DeliveryImage,
    transforms: Partial<Transforms>,
    params: Record<string, string>,
    accept: string | undefined,
    hints: HintsOfRequest | undefined,
    asked: { meta: boolean; keepMetadata: boolean },
  ) {
    let current = image;
    for (let attempt = 1; ; attempt++) {
      const overlay = await findOverlay(this.#dependencies.store, projectId, transforms, params);
      try {
        const hinted = hints ? this.#hinted(current, transforms, hints) : { transforms, vary: [] };
        const settings = { overlay, keepMetadata: asked.keepMetadata };
        const answer = asked.meta
          ? await this.#info(current, hinted.transforms, settings, accept)
          : await this.#variant(current, hinted.transforms, settings, accept);
        return { ...answer, varyOnHints: hinted.vary };
      } catch (error) {
        if (!(error instanceof OriginalGoneError) || attempt === REPLACED_RETRIES) throw error;
        if (error.blobKey === overlay?.blobKey && error.blobKey !== current.blobKey) continue;
        const reread = await this.#dependencies.store.image(projectId, path);
        if (!reread || reread.blobKey === current.blobKey) throw notFound();
        current = reread;
      }
    }
  }

  async #checkSignature(project: DeliveryProject, encodedPath: string, params: Record<string, string>, at: string) {
    if (!project.requireSignedUrls) return;
    const verdict = await verifyCdnSignature(project.signingSecrets, project.slug, encodedPath, params, Math.floor(Date.parse(at) / 1000));
    if (verdict === 'missing') throw new LoupeError('signature_required');
    if (verdict === 'invalid') throw new LoupeError('signature_invalid');
    if (verdict === 'expired') throw new LoupeError('signature_expired');
  }

  /**
   * The transforms with the client hints applied. Hints vary the output only within what the
   * URL (and so its signature) names: a hinted size past the output bound falls back to the
   * URL's own size, so a header can neither pass the bound nor break a working URL.
   */
  #hinted(image: DeliveryImage, transforms: Partial<Transforms>, { hints, explicit }: HintsOfRequest) {
    const hinted = applyClientHints(transforms, explicit, hints, image);
    const size = outputSize(hinted.transforms, image);
    const pixels = size.width * size.height;
    // An animation's frames count too (LOUPE_MAX_ANIMATION_PIXELS): a hint must not make it a refusal.
    const frames = transforms.frame === undefined ? (image.frames ?? 1) : 1;
    const over =
      pixels > this.#dependencies.maxOutputPixels || (frames > 1 && frames * pixels > this.#dependencies.pipeline.maxAnimationPixels);
    return over ? { transforms, vary: hinted.vary } : hinted;
  }

  async #variant(image: DeliveryImage, transforms: Partial<Transforms>, settings: VariantSettings, accept: string | undefined) {
    const { format: asked, qualityMode, quality, ...rest } = transforms;
    // With nothing to change, the original is served as stored, less its metadata unless the project keeps it.
    if (asked === undefined && quality === undefined && qualityMode === undefined && Object.keys(rest).length === 0) {
      const key = `${variantKeyPrefix(image.blobKey)}original${settings.keepMetadata ? '' : '|without-metadata'}`;
      const served = await this.#dependencies.cache.getOrCreate(key, async () => {
        const stored = { data: await this.#original(image.blobKey), contentType: image.contentType, format: image.format };
        if (settings.keepMetadata) return stored;
        const plain = { overlay: undefined, keepMetadata: false };
        return privateOriginal(
          stored,
          async () => (await this.#transformed(image, {}, defaultFormat(image, {}), undefined, plain)).variant,
        );
      });
      return { ...served, varyOnAccept: false };
    }

    assertOutputWithinBound(rest, image, this.#dependencies.maxOutputPixels);
    const frames = await animationFrames(image, rest.frame, () => this.#original(image.blobKey));
    const format: OutputFormat =
      asked === 'auto' ? negotiateFormat(accept, needsAlpha(image, rest), frames > 1) : (asked ?? defaultFormat(image, rest));
    if (frames > 1 && ANIMATED_FORMATS.has(format)) {
      const limit = this.#dependencies.pipeline.maxAnimationPixels;
      assertAnimationWithinBound(frames, image, limit, 'decoded');
      assertAnimationWithinBound(frames, outputSize(rest, image), limit, 'made');
    }
    const resolvedQuality =
      quality ??
      (qualityMode !== undefined && format !== 'png' && format !== 'gif'
        ? await this.#dependencies.quality.choose(image.blobKey, format, qualityMode, () => this.#original(image.blobKey))
        : undefined);
    const served = await this.#transformed(image, rest, format, resolvedQuality, settings);
    return { ...served, varyOnAccept: asked === 'auto' };
  }

  /** `?meta`: the original's facts, and the output's when transforms are asked; cached like a variant. */
  async #info(image: DeliveryImage, transforms: Partial<Transforms>, settings: VariantSettings, accept: string | undefined) {
    const output = Object.keys(transforms).length > 0 ? await this.#variant(image, transforms, settings, accept) : undefined;
    // The output's ETag names its original, transforms, format, overlay and metadata setting at once.
    const key = `${variantKeyPrefix(image.blobKey)}meta|v${INFO_VERSION}|${output?.variant.etag ?? ''}`;
    const served = await this.#dependencies.cache.getOrCreate(key, () =>
      this.#dependencies.limiter.run(async () => {
        const { maxInputPixels, timeoutSeconds } = this.#dependencies;
        const original = await describeOriginal(await this.#original(image.blobKey), image, { maxInputPixels, timeoutSeconds }).catch(
          (error: unknown) => {
            throw error instanceof ImageDecodeError && error.reason === 'timeout' ? transformTimeout() : error;
          },
        );
        const info = output ? { ...original, output: await describeOutput(output.variant) } : original;
        return { data: Buffer.from(JSON.stringify(info)), contentType: 'application/json; charset=utf-8' };
      }),
    );
    return { ...served, varyOnAccept: output?.varyOnAccept ?? false };
  }

  async #transformed(
    image: DeliveryImage,
    rest: Partial<Transforms>,
    format: OutputFormat,
    resolvedQuality: number | undefined,
    { overlay, keepMetadata }: VariantSettings,
  ) {
    // The overlay's version is part of the key: replacing the overlay image renews every variant it marks.
    const overlayVersion = overlay ? `|overlay:${overlay.blobKey}` : '';
    // So is the metadata setting, so flipping it never serves a variant made under the other.
    const metadata = keepMetadata ? '|keep-metadata' : '';
    const key = `${variantKeyPrefix(image.blobKey)}v${PIPELINE_VERSION}|${canonicalJson(rest)}|${format}|q${resolvedQuality ?? ''}${overlayVersion}${metadata}`;
    return this.#dependencies.cache.getOrCreate(key, () =>
      this.#dependencies.limiter.run(async () => {
        const input = await this.#original(image.blobKey);
        try {
          const output = await transformImage(
            input,
            { ...rest, format, ...(resolvedQuality !== undefined ? { quality: resolvedQuality } : {}) },
            {
              ...this.#dependencies.pipeline,
              maxInputPixels: this.#dependencies.maxInputPixels,
              timeoutSeconds: this.#dependencies.timeoutSeconds,
              ...(overlay ? { overlay: await this.#original(overlay.blobKey) } : {}),
              keepMetadata,
            },
          );
          return { data: output.data, contentType: output.contentType };
        } catch (error) {
          if (error instanceof ImageDecodeError && error.reason === 'timeout') throw transformTimeout();
          throw error;
        }
      }),
    );
  }

  async #original(blobKey: string): Promise<Buffer> {
    const data = await this.#dependencies.blobs.get(blobKey);
    if (!data) throw new OriginalGoneError(blobKey);
    return data;
  }
}

/** What a variant depends on beyond its transforms: the overlay image, the project's metadata setting. */
interface VariantSettings {
  overlay: DeliveryImage | undefined;
  keepMetadata: boolean;
}

interface HintsOfRequest {
  hints: ClientHints;
  /** What the URL itself set: those fields win over hints. */
  explicit: Partial<Transforms>;
}

/** An image record whose original is no longer in the blob store (replaced or deleted meanwhile). */
class OriginalGoneError extends LoupeError {
  readonly blobKey: string;

  constructor(blobKey: string) {
    super('not_found', { message: 'No such image.' });
    this.name = `OriginalGoneError(${blobKey})`;
    this.blobKey = blobKey;
  }
}
