import createDecoderCodec from '@jsquash/jxl/codec/dec/jxl_dec.js';
import sharp, { type Sharp } from 'sharp';
import { ssim } from 'ssim.js';
import { defaultQuality, encodeOutput, missingJxlEncoder } from './encode-output.ts';
import { toImageDecodeError } from './image-decode-error.ts';
import { type JxlCodecFactory, loadJxlCodec } from './jxl-codec-loader.ts';
import { openRaw, type RawImage, readRaw } from './raw-image.ts';
import { decodeOptions, type OutputFormat, type PipelineOptions } from './transform-pipeline.ts';

export type QualityMode = 'high' | 'medium' | 'low';

/** The formats with a quality setting; PNG is lossless. */
// GIF is a palette, not a quality scale: like PNG, it has no quality to choose.
export type LossyFormat = Exclude<OutputFormat, 'png' | 'gif'>;

/**
 * The SSIM each mode aims for, as this module measures it (luma, at ≤ 512 px, no further
 * downsampling). Each is what a well-known JPEG setting reaches on the median of the six
 * photos in shared/testdata/images (sharp's JPEG, scores from q60 to q90 in 0.89–0.99):
 * - high: JPEG quality 90 (median 0.9845), the usual rule of thumb for visually lossless;
 * - medium: JPEG quality 80 (median 0.9708), sharp's default and Loupe's `defaultQuality`;
 * - low: JPEG quality 60 (median 0.9494), for when bytes matter more than fine detail.
 * So `medium` gives about today's default on a typical photo, less on an easy one and more
 * on a detailed one (hubble_deep_field.jpg reaches only 0.929 at JPEG 80).
 */
export const qualityTargets: Record<QualityMode, number> = { high: 0.985, medium: 0.97, low: 0.95 };

/** The long side of the copy that candidates are encoded from. */
const SAMPLE_SIZE = 512;
/**
 * Bisection over 1–100 keeps a failing quality below and a passing one above; six halvings
 * leave them at most 2 apart, so the answer is the minimum or one above it (seven would be
 * exact). 100 counts as passing without an encode: when nothing reaches the target, 100 is
 * still the best that can be asked for.
 */
const MAX_ENCODES = 6;
/**
 * The score averages 11-px windows; a copy under 16 px on its short side is at most two
 * windows across, too few to rank qualities by, and costs little at any quality anyway.
 */
const MIN_SIDE = 16;
/** sharp's `timeout` of 0 is no limit: the copy is small and the original bounded in pixels. */
const NO_TIME_LIMIT = 0;

/**
 * The lowest encoder quality whose output, decoded, reaches the mode's SSIM against the source.
 * Works on a downscaled copy (≤ 512 px on the long side) so it costs a few small encodes:
 * a bisection over 1–100 with at most six, each made by `encodeOutput` exactly as the
 * pipeline makes its answers. The result does not depend on the requested size or
 * transforms, so callers compute it once per original, format and mode and cache it.
 * A copy too small to score (under 16 px on a side) gets the format's default quality.
 * Throws ImageDecodeError when the original cannot be decoded.
 */
export async function findQualityForMode(
  input: Buffer,
  format: LossyFormat,
  mode: QualityMode,
  options: Pick<PipelineOptions, 'maxInputPixels' | 'encodeJxl'>,
): Promise<number> {
  if (format === 'jxl' && options.encodeJxl === undefined) throw missingJxlEncoder();
  const source = await decodeSample(input, options.maxInputPixels);
  if (Math.min(source.width, source.height) < MIN_SIDE) return defaultQuality[format];
  const reference = await asSeen(openRaw(source, NO_TIME_LIMIT));
  const target = qualityTargets[mode];

  let failing = 0;
  let passing = 100;
  for (let encodes = 0; encodes < MAX_ENCODES && passing - failing > 1; encodes++) {
    const quality = Math.floor((failing + passing) / 2);
    const encoded = await encodeOutput(source, { format, quality }, options.encodeJxl, NO_TIME_LIMIT);
    const decoded = await decodeCandidate(encoded, format);
    if (similarity(reference, decoded) >= target) passing = quality;
    else failing = quality;
  }
  return passing;
}

/** The original, decoded once as the pipeline decodes it, at sample size. */
async function decodeSample(input: Buffer, maxInputPixels: number): Promise<RawImage> {
  try {
    const pipeline = sharp(input, decodeOptions(maxInputPixels))
      .resize(SAMPLE_SIZE, SAMPLE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    return await readRaw(pipeline);
  } catch (error) {
    throw toImageDecodeError(error);
  }
}

/**
 * Pixels as a page shows them: over white, opaque RGBA (the layout ssim.js reads). The JPEG
 * candidate is already flattened on white by `encodeOutput`, and the colour under a
 * transparent pixel is invisible, so both sides are compared flattened alike.
 */
function asSeen(pipeline: Sharp): Promise<RawImage> {
  return readRaw(pipeline.flatten({ background: '#ffffff' }).ensureAlpha());
}

async function decodeCandidate(encoded: Buffer, format: LossyFormat): Promise<RawImage> {
  if (format !== 'jxl') return asSeen(sharp(encoded));
  // sharp's libvips reads no JPEG XL either (DESIGN.md §9), so libjxl's own decoder does.
  const image = (await loadJxlDecoder()).decode(encoded);
  if (!image) throw new Error('JPEG XL decode of a quality candidate failed');
  const data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return asSeen(openRaw({ data, width: image.width, height: image.height, channels: 4 }, NO_TIME_LIMIT));
}

/**
 * Mean SSIM of the luma. ssim.js's `bezkrovny` variant scores non-overlapping 11-px windows:
 * about 8 ms on a 512×446 copy here against about 90 ms for its default `weber` (sliding
 * windows), and within 0.0005 of it on JPEG, WebP and AVIF candidates of
 * hubble_deep_field.jpg, so six candidates cost 50 ms of scoring instead of half a second.
 * Its default `downsample: 'original'` halves images whose short side rounds to
 * ≥ 2 × 256 px, so a 512×446 copy would be scored at half size and a 512×341 one at full
 * size: hubble_deep_field.jpg at JPEG 80 scores 0.989 halved but 0.929 as is, and the
 * targets would mean different things for different shapes. Scoring the sample as is
 * keeps one scale for every image.
 */
function similarity(reference: RawImage, candidate: RawImage): number {
  return ssim(toImageData(reference), toImageData(candidate), { ssim: 'bezkrovny', downsample: false }).mssim;
}

/** ssim.js names this type but does not export it. */
type SsimImage = Parameters<typeof ssim>[0];

function toImageData(image: RawImage): SsimImage {
  const { data, width, height } = image;
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width, height };
}

interface JxlDecoderCodec {
  /** Returns RGBA, 8 bits per sample, or null when the input is not JPEG XL. */
  decode(data: Uint8Array): { data: Uint8ClampedArray; width: number; height: number } | null;
}

const createJxlDecoder: JxlCodecFactory<JxlDecoderCodec> = createDecoderCodec;
const jxlDecoderWasm = new URL(import.meta.resolve('@jsquash/jxl/codec/dec/jxl_dec.wasm'));
let jxlDecoder: Promise<JxlDecoderCodec> | undefined;

/** Compiles the decoder on first use; concurrent first calls share one compilation. */
function loadJxlDecoder(): Promise<JxlDecoderCodec> {
  if (!jxlDecoder) {
    jxlDecoder = loadJxlCodec(createJxlDecoder, jxlDecoderWasm);
    // A failed load is retried by the next call rather than remembered.
    jxlDecoder.catch(() => {
      jxlDecoder = undefined;
    });
  }
  return jxlDecoder;
}
