import type { Transforms } from '@loupe/contract';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { assertAnimationWithinBound } from './animation-bound.ts';
import { colourAdjustment } from './colour-adjustments.ts';
import { contentTypes, encodeOutput, missingJxlEncoder } from './encode-output.ts';
import { faceCrop } from './face-crop.ts';
import { ImageDecodeError, isSharpTimeout, timeoutError, toImageDecodeError } from './image-decode-error.ts';
import { metadataCarrier } from './metadata-carrier.ts';
import { orientationSteps } from './orientation-steps.ts';
import { outputSize } from './output-bound.ts';
import { placeOverlay } from './overlay.ts';
import { eachFrame, frameOf, openRaw, type RawImage, readRaw, timeBudget } from './raw-image.ts';
import {
  coverCropAround,
  cropsByGravity,
  hasBox,
  limitsBoxToOriginal,
  limitToOriginal,
  padOffsets,
  planResize,
  type Region,
  type ResizePlan,
  rotatedSize,
  type Size,
  sharpResize,
} from './resize-plan.ts';
import { roundedCornerMask } from './rounded-corners.ts';

export { ImageDecodeError, type ImageDecodeFailure } from './image-decode-error.ts';

export type OutputFormat = 'webp' | 'avif' | 'jpeg' | 'png' | 'jxl' | 'gif';

/**
 * The outputs that keep an animation. libvips here writes AVIF as one still (a 4-frame input
 * came out one tall picture), and has no animated PNG or JPEG XL encoder.
 */
export const ANIMATED_FORMATS: ReadonlySet<OutputFormat> = new Set(['webp', 'gif']);

/** Transforms after the caller negotiated `format: auto` and resolved `qualityMode`. */
export interface ResolvedTransforms extends Omit<Transforms, 'format' | 'qualityMode'> {
  format: OutputFormat;
}

export interface PipelineOptions {
  maxInputPixels: number;
  /** LOUPE_MAX_ANIMATION_PIXELS: frames × pixels decoded or made. */
  maxAnimationPixels: number;
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
  /** 1 for a still. */
  frames: number;
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
    const plan = await planFor(input, transforms, options);
    const animated = ANIMATED_FORMATS.has(transforms.format) && transforms.frame === undefined;
    const animation = animated ? await readAnimation(input, transforms, options) : undefined;
    const request = { input, transforms, plan, options, secondsLeft };
    let image = animation ? await decodeAndResizeFrames(request) : await decodeAndResize(request);

    const colour = colourAdjustment(transforms);
    if (colour) {
      image = await readRaw(openRaw(image, secondsLeft()).recomb(colour.matrix).linear([1, 1, 1], colour.offset));
    }
    if (transforms.blur !== undefined || (transforms.sharpen ?? 0) > 0) {
      image = await eachFrame(image, (frame) => readRaw(detailFilters(openRaw(frame, secondsLeft()), transforms)));
    }
    // After the colour and detail steps, so a watermark stays crisp and true to its colours;
    // before pad and radius, so it sits on the picture and rounded corners cut it too.
    if (transforms.overlay !== undefined) {
      if (!options.overlay) throw new Error('The overlay image was not given to the pipeline.');
      const overlay = options.overlay;
      // On each frame of an animation: composited on the stack, it would mark only one.
      image = await eachFrame(image, (frame) => placeOverlay(frame, overlay, transforms, options.maxInputPixels, secondsLeft));
    }
    const padBox = plan?.fit === 'pad' && hasBox(plan) ? plan : undefined;
    if (padBox || transforms.radius !== undefined) {
      image = await eachFrame(image, (frame) => readRaw(shape(openRaw(frame, secondsLeft()), frame, transforms, padBox)));
    }

    // Kept metadata rides on a still's encode; an animation's frames are served without it.
    const keeps = options.keepMetadata && (image.frames ?? 1) === 1;
    const carrier = keeps ? metadataCarrier(() => sharp(input, decodeOptions(options.maxInputPixels))) : undefined;
    const data = await encodeOutput(image, { ...transforms, ...animation?.timing }, options.encodeJxl, secondsLeft(), carrier);
    const { format } = transforms;
    return { data, format, contentType: contentTypes[format], width: image.width, height: image.height, frames: image.frames ?? 1 };
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
export async function probeImage(
  input: Buffer,
  options: { maxInputPixels: number; maxAnimationPixels: number; thumbnailSize?: number },
): Promise<ImageProbe> {
  try {
    const metadata = await sharp(input, decodeOptions(options.maxInputPixels)).metadata();
    // Only the first frame is decoded here; an animation that could never be delivered whole
    // is refused by its header, before its frames are.
    const frames = metadata.pages ?? 1;
    if (frames > 1 && frames * metadata.width * metadata.height > options.maxAnimationPixels) {
      throw new ImageDecodeError(
        'too_large',
        `The animation has ${frames} frames of ${metadata.width}×${metadata.height} pixels; this server takes at most ${options.maxAnimationPixels} pixels of frames (LOUPE_MAX_ANIMATION_PIXELS).`,
      );
    }
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
      pages: frames,
      thumbnail: { data, width: info.width, height: info.height, channels: 4 },
    };
  } catch (error) {
    throw toImageDecodeError(error);
  }
}

/**
 * How every original is opened: bounded, strict about damage, upright, one frame (`page`,
 * 0-based: the first unless a poster frame is asked for) or, with `animated`, all of them.
 * With all frames, sharp's `limitInputPixels` bounds the stack of them.
 */
export function decodeOptions(maxInputPixels: number, frames: { page?: number; animated?: boolean } = {}): SharpOptions {
  return {
    // 'error' implies 'truncated': a cut-off file fails instead of decoding grey rows.
    failOn: 'error',
    limitInputPixels: maxInputPixels,
    autoOrient: true,
    ...(frames.animated ? { animated: true } : { pages: 1, page: frames.page ?? 0 }),
  };
}

/**
 * The resize plan for this original. Only a cover or fill box that may not enlarge needs the
 * original's size, which its header tells without decoding the pixels.
 */
async function planFor(input: Buffer, transforms: ResolvedTransforms, options: PipelineOptions): Promise<ResizePlan | undefined> {
  const plan = planResize(transforms);
  if (!plan || !limitsBoxToOriginal(plan)) return plan;
  try {
    const metadata = await sharp(input, decodeOptions(options.maxInputPixels)).metadata();
    // Frames decoded together are stacked; the box is limited to one frame, what is shown.
    const { pageHeight, autoOrient } = metadata;
    const shown = pageHeight !== undefined && pageHeight < metadata.height ? { width: metadata.width, height: pageHeight } : autoOrient;
    return limitToOriginal(plan, rotatedSize(shown, transforms.rotate));
  } catch (error) {
    throw toImageDecodeError(error);
  }
}

interface Animation {
  frames: number;
  /** What the encoder keeps: each frame's delay in ms, and the loop count (0: for ever). */
  timing: { delay?: number[]; loop?: number };
}

/**
 * The original's frames from its header, or undefined for a still; refuses an animation whose
 * frames together exceed the bound before any of them is decoded.
 */
async function readAnimation(input: Buffer, transforms: ResolvedTransforms, options: PipelineOptions): Promise<Animation | undefined> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input, decodeOptions(options.maxInputPixels)).metadata();
  } catch (error) {
    throw toImageDecodeError(error);
  }
  const frames = metadata.pages ?? 1;
  if (frames <= 1) return undefined;
  const frame = metadata.autoOrient;
  assertAnimationWithinBound(frames, frame, options.maxAnimationPixels, 'decoded');
  assertAnimationWithinBound(frames, outputSize(transforms, frame), options.maxAnimationPixels, 'made');
  return { frames, timing: { delay: metadata.delay, loop: metadata.loop } };
}

/** What the decode-and-resize step works from. */
interface DecodeRequest {
  input: Buffer;
  transforms: ResolvedTransforms;
  plan: ResizePlan | undefined;
  options: PipelineOptions;
  secondsLeft: () => number;
}

/** Decode → rotate → flip → resize/crop, in one sharp pipeline from the original. */
async function decodeAndResize(request: DecodeRequest): Promise<RawImage> {
  const { input, transforms, plan, options, secondsLeft } = request;
  const page = transforms.frame === undefined ? 0 : transforms.frame - 1;
  const original = () =>
    orient(sharp(input, decodeOptions(options.maxInputPixels, { page })).timeout({ seconds: secondsLeft() }), transforms);
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

/**
 * decodeAndResize for every frame of an animation, stacked. sharp resizes, crops and pads a
 * stack frame by frame and mirrors it left-right as a whole, which mirrors each frame; a turn
 * or an upside-down flip of the stack would reverse the frames' order (or be refused), so
 * those run on each frame. Saliency and face gravity choose the crop from the first frame
 * and apply it to all, so that the frames stay aligned.
 */
async function decodeAndResizeFrames(request: DecodeRequest): Promise<RawImage> {
  const { input, transforms, plan, options, secondsLeft } = request;
  const steps = orientationSteps(transforms.rotate, transforms.flip);
  const orientsAsStack = steps.angle === 0 && !steps.flip;
  const byFirstFrame = plan !== undefined && cropsByGravity(plan) && (plan.gravity === 'auto' || plan.gravity === 'face');
  const original = () => {
    const all = sharp(input, decodeOptions(options.maxInputPixels, { animated: true })).timeout({ seconds: secondsLeft() });
    return orientsAsStack ? orient(all, transforms) : all;
  };
  if (orientsAsStack && !byFirstFrame) return decodeOriginal(() => (plan ? original().resize(sharpResize(plan)) : original()));

  let whole = await decodeOriginal(original);
  if (!orientsAsStack) whole = await eachFrame(whole, (frame) => readRaw(orient(openRaw(frame, secondsLeft()), transforms)));
  if (!plan) return whole;
  if (!cropsByGravity(plan) || !byFirstFrame) return readRaw(openRaw(whole, secondsLeft()).resize(sharpResize(plan)));
  const region = await firstFrameCrop(frameOf(whole, 0), plan, options, secondsLeft());
  return readRaw(openRaw(whole, secondsLeft()).extract(region).resize(plan.width, plan.height, { fit: 'fill' }));
}

/** The region of a frame that face gravity, or else sharp's saliency (`attention`), keeps. */
async function firstFrameCrop(frame: RawImage, box: ResizePlan & Size, options: PipelineOptions, seconds: number): Promise<Region> {
  if (box.gravity === 'face' && options.findFace) {
    const region = await faceCrop(frame, box, options.findFace, seconds);
    if (region) return region;
  }
  const { info } = await openRaw(frame, seconds)
    .resize(box.width, box.height, { fit: 'cover', position: 'attention' })
    .toBuffer({ resolveWithObject: true });
  const centre = { x: info.attentionX ?? frame.width / 2, y: info.attentionY ?? frame.height / 2 };
  return coverCropAround(frame, centre, box);
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
