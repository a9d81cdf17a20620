import type { Transforms } from '@loupe/contract';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { colourAdjustment } from './colour-adjustments.ts';
import { contentTypes, encodeOutput, missingJxlEncoder } from './encode-output.ts';
import { faceCrop } from './face-crop.ts';
import { isSharpTimeout, timeoutError, toImageDecodeError } from './image-decode-error.ts';
import { metadataCarrier } from './metadata-carrier.ts';
import { orientationSteps } from './orientation-steps.ts';
import { placeOverlay } from './overlay.ts';
import { openRaw, type RawImage, readRaw, timeBudget } from './raw-image.ts';
import { cropsByGravity, hasBox, padOffsets, planResize, type ResizePlan, type Size, sharpResize } from './resize-plan.ts';
import { roundedCornerMask } from './rounded-corners.ts';

export { ImageDecodeError, type ImageDecodeFailure } from './image-decode-error.ts';

export type OutputFormat = 'webp' | 'avif' | 'jpeg' | 'png' | 'jxl';

/** Transforms after the caller negotiated `format: auto` and resolved `qualityMode`. */
export interface ResolvedTransforms extends Omit<Transforms, 'format' | 'qualityMode'> {
  format: OutputFormat;
}

export interface PipelineOptions {
  maxInputPixels: number;
  timeoutSeconds: number;
  findFace?: (image: {
    data: Buffer;
    width: number;
    height: number;
    channels: 3;
  }) => Promise<{ x: number; y: number; width: number; height: number } | null>;
  encodeJxl?: (image: { data: Buffer; width: number; height: number; channels: 4 }, quality: number) => Promise<Buffer>;
  /** The stored original of the image that `transforms.overlay` names. */
  overlay?: Buffer;
  /** The output keeps the original's EXIF, XMP and IPTC, and is tagged sRGB; otherwise it has no metadata. */
  keepMetadata?: boolean;
}

export interface TransformedImage {
  data: Buffer;
  format: OutputFormat;
  contentType: string;
  width: number;
  height: number;
}

// libvips' operation cache keeps recent results to reuse them; every request here starts
// from a different original and the variant cache above already answers repeats, so it
// would only hold memory.
sharp.cache(false);
// One libvips thread per image: requests run in parallel on libuv's pool and the HTTP
// layer bounds concurrent transforms, so on 2 cores more threads per image oversubscribe.
// It is also what sharp picks itself under glibc's allocator, to limit fragmentation.
sharp.concurrency(1);

/**
 * The transform pipeline of DESIGN.md §7: decode (EXIF auto-orient) → rotate → flip →
 * resize/crop → colour → blur, sharpen → overlay → pad, radius → flatten → encode. The original is
 * decoded once; later stages pass raw pixels at output size, never re-encoded, each its
 * own sharp pass because sharp's internal operation order differs from DESIGN's.
 */
export async function transformImage(input: Buffer, transforms: ResolvedTransforms, options: PipelineOptions): Promise<TransformedImage> {
  if (transforms.format === 'jxl' && options.encodeJxl === undefined) throw missingJxlEncoder();
  const secondsLeft = timeBudget(options.timeoutSeconds);
  try {
    const plan = planResize(transforms);
    let image = await decodeAndResize(input, transforms, plan, options, secondsLeft);

    const colour = colourAdjustment(transforms);
    if (colour) {
      image = await readRaw(openRaw(image, secondsLeft()).recomb(colour.matrix).linear([1, 1, 1], colour.offset));
    }
    if (transforms.blur !== undefined || (transforms.sharpen ?? 0) > 0) {
      image = await readRaw(detailFilters(openRaw(image, secondsLeft()), transforms));
    }
    // After the colour and detail steps, so a watermark stays crisp and true to its colours;
    // before pad and radius, so it sits on the picture and rounded corners cut it too.
    if (transforms.overlay !== undefined) {
      if (!options.overlay) throw new Error('The overlay image was not given to the pipeline.');
      image = await placeOverlay(image, options.overlay, transforms, options.maxInputPixels, secondsLeft);
    }
    const padBox = plan?.fit === 'pad' && hasBox(plan) ? plan : undefined;
    if (padBox || transforms.radius !== undefined) {
      image = await readRaw(shape(openRaw(image, secondsLeft()), image, transforms, padBox));
    }

    const carrier = options.keepMetadata ? metadataCarrier(() => sharp(input, decodeOptions(options.maxInputPixels))) : undefined;
    const data = await encodeOutput(image, transforms, options.encodeJxl, secondsLeft(), carrier);
    const { format } = transforms;
    return { data, format, contentType: contentTypes[format], width: image.width, height: image.height };
  } catch (error) {
    // A killed pipeline does not always say it timed out (it has failed as "Unknown error",
    // then read as a damaged original), so any failure once the budget is spent is a timeout.
    throw isSharpTimeout(error) || secondsLeft.expired() ? timeoutError(error) : error;
  }
}

export interface ImageProbe {
  width: number;
  height: number;
  format: string;
  hasAlpha: boolean;
  pages: number;
  /** A small RGBA copy (at most `thumbnailSize` on a side), e.g. for a blurhash placeholder. */
  thumbnail: { data: Buffer; width: number; height: number; channels: 4 };
}

/**
 * What an upload holds. The header tells the format and size; the one full decode (a header
 * alone does not reveal truncation) also yields the thumbnail, so nothing decodes twice.
 */
export async function probeImage(input: Buffer, options: { maxInputPixels: number; thumbnailSize?: number }): Promise<ImageProbe> {
  try {
    const metadata = await sharp(input, decodeOptions(options.maxInputPixels)).metadata();
    const size = options.thumbnailSize ?? 32;
    const { data, info } = await sharp(input, decodeOptions(options.maxInputPixels))
      .resize(size, size, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const format = metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : metadata.format;
    return {
      // As displayed: a portrait photo stored sideways with an EXIF orientation is portrait.
      width: metadata.autoOrient.width,
      height: metadata.autoOrient.height,
      format,
      hasAlpha: metadata.hasAlpha,
      pages: metadata.pages ?? 1,
      thumbnail: { data, width: info.width, height: info.height, channels: 4 },
    };
  } catch (error) {
    throw toImageDecodeError(error);
  }
}

/** How every original is opened: bounded, strict about damage, upright, first frame only. */
export function decodeOptions(maxInputPixels: number): SharpOptions {
  return {
    // 'error' implies 'truncated': a cut-off file fails instead of decoding grey rows.
    failOn: 'error',
    limitInputPixels: maxInputPixels,
    autoOrient: true,
    // Animated GIF and WebP: only the first frame is read and transformed; the output
    // formats here are served as stills.
    pages: 1,
  };
}

/** Decode → rotate → flip → resize/crop, in one sharp pipeline from the original. */
async function decodeAndResize(
  input: Buffer,
  transforms: ResolvedTransforms,
  plan: ResizePlan | undefined,
  options: PipelineOptions,
  secondsLeft: () => number,
): Promise<RawImage> {
  const original = () => orient(sharp(input, decodeOptions(options.maxInputPixels)).timeout({ seconds: secondsLeft() }), transforms);
  if (plan && cropsByGravity(plan) && plan.gravity === 'face' && options.findFace) {
    // The finder needs the oriented pixels before the crop is chosen, so decode them
    // whole and crop from memory rather than decoding the original a second time.
    const whole = await decodeOriginal(original);
    const region = await faceCrop(whole, plan, options.findFace, secondsLeft());
    const fromWhole = openRaw(whole, secondsLeft());
    return readRaw(
      region ? fromWhole.extract(region).resize(plan.width, plan.height, { fit: 'fill' }) : fromWhole.resize(sharpResize(plan)),
    );
  }
  return decodeOriginal(() => (plan ? original().resize(sharpResize(plan)) : original()));
}

/** Failures here are the input's fault, and become ImageDecodeErrors. */
async function decodeOriginal(pipeline: () => Sharp): Promise<RawImage> {
  try {
    // Grey, CMYK and palette inputs all become sRGB, so later stages see 3 or 4 channels.
    // An embedded ICC profile (Display P3, Adobe RGB, CMYK) is applied first: sharp converts
    // from it on decode, so wide-gamut photos look right (transform-pipeline.test.ts).
    return await readRaw(pipeline().toColourspace('srgb'));
  } catch (error) {
    throw toImageDecodeError(error);
  }
}

function orient(pipeline: Sharp, transforms: ResolvedTransforms): Sharp {
  const steps = orientationSteps(transforms.rotate, transforms.flip);
  if (steps.angle !== 0) pipeline.rotate(steps.angle);
  if (steps.flip) pipeline.flip();
  if (steps.flop) pipeline.flop();
  return pipeline;
}

/**
 * blur 1–250 → Gaussian sigma = blur / 2: the blur value reads as a radius, and a
 * Gaussian's visible reach is about two sigmas (95% of its weight), so blur 1 is a
 * slight softening (sigma 0.5, above sharp's 0.3 minimum) and 250 erases detail.
 * sharpen 0–10 → unsharp-mask sigma, sharp's m1/m2 defaults; 0 is none.
 * Both are in output pixels: they run after the resize.
 */
function detailFilters(pipeline: Sharp, transforms: ResolvedTransforms): Sharp {
  if (transforms.blur !== undefined) pipeline.blur(transforms.blur / 2);
  const sharpen = transforms.sharpen ?? 0;
  if (sharpen > 0) pipeline.sharpen({ sigma: sharpen });
  return pipeline;
}

/**
 * The `pad` band, then rounded corners over the whole box. The band is added after the
 * colour and detail steps so that it is exactly `bg` (or transparent), not a tinted or
 * blurred version of it.
 */
function shape(pipeline: Sharp, image: RawImage, transforms: ResolvedTransforms, padBox: (ResizePlan & Size) | undefined): Sharp {
  let size = { width: image.width, height: image.height };
  if (padBox && (padBox.width > image.width || padBox.height > image.height)) {
    const background = transforms.bg ? `#${transforms.bg}` : { r: 0, g: 0, b: 0, alpha: 0 };
    pipeline.extend({ ...padOffsets(size, padBox, padBox.gravity), background });
    size = { width: padBox.width, height: padBox.height };
  }
  if (transforms.radius !== undefined) {
    pipeline.composite([{ input: roundedCornerMask(size.width, size.height, transforms.radius), blend: 'dest-in' }]);
  }
  return pipeline;
}
