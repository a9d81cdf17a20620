import type { OpenForEncode } from './metadata-carrier.ts';
import { openRaw, type RawImage, readRaw } from './raw-image.ts';
import type { OutputFormat, PipelineOptions } from './transform-pipeline.ts';

export const contentTypes = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
  jxl: 'image/jxl',
  gif: 'image/gif',
} as const satisfies Record<OutputFormat, string>;

/**
 * Quality when the request has none. JPEG, WebP and AVIF take sharp's defaults, which
 * its maintainers tuned to look alike; JPEG XL's quality is a JPEG-like scale by design
 * (libjxl), so it takes JPEG's. PNG is lossless and ignores quality.
 */
export const defaultQuality = { jpeg: 80, webp: 80, avif: 50, jxl: 80 } as const;

/**
 * AVIF is encoded on the fly, so effort sets first-request latency: effort 1 keeps it near
 * WebP's while saving bytes over effort 0; effort 2 doubles the time for little more
 * (bench/README.md, "Encoder settings and kept answers").
 */
export const AVIF_EFFORT = 1;
const GIF_EFFORT = 1;

export interface EncodeRequest {
  format: OutputFormat;
  quality?: number;
  /** Six hex digits; the colour under transparent pixels when the format has no alpha. */
  bg?: string;
  /** An animation's delay per frame in ms and loop count, kept by the formats that animate. */
  delay?: number[];
  loop?: number;
}

/**
 * Encodes the final pixels: the one encode of the pipeline (STYLE.md §8). Started from raw
 * pixels the output carries no metadata (EXIF, XMP, IPTC, ICC: untagged means sRGB);
 * `open` may bring the original's instead (metadata-carrier.ts).
 */
export async function encodeOutput(
  image: RawImage,
  request: EncodeRequest,
  encodeJxl: PipelineOptions['encodeJxl'],
  seconds: number,
  open: OpenForEncode = openRaw,
): Promise<Buffer> {
  const { format } = request;
  const pipeline = open(image, seconds);
  const timing = (image.frames ?? 1) > 1 ? { delay: request.delay, loop: request.loop } : {};
  switch (format) {
    case 'jpeg': {
      // JPEG is the one output without alpha (DESIGN.md §7: flatten on `bg`, white by default).
      const background = `#${request.bg ?? 'ffffff'}`;
      // A carrier lays the pixels over the original after its own flatten, so they come flat.
      const flat =
        open !== openRaw && image.channels === 4 ? open(await readRaw(openRaw(image, seconds).flatten({ background })), seconds) : pipeline;
      return flat
        .flatten({ background })
        .jpeg({ quality: request.quality ?? defaultQuality.jpeg })
        .toBuffer();
    }
    case 'png':
      return pipeline.png().toBuffer();
    case 'webp':
      return pipeline.webp({ quality: request.quality ?? defaultQuality.webp, ...timing }).toBuffer();
    case 'gif':
      // GIF has no quality setting: libvips quantises each frame to a 256-colour palette.
      // Effort 1 (of 10) made 24 frames in 0.3 s instead of 1.7 s, for a file 1% smaller.
      return pipeline.gif({ ...timing, effort: GIF_EFFORT }).toBuffer();
    case 'avif':
      return pipeline.avif({ quality: request.quality ?? defaultQuality.avif, effort: AVIF_EFFORT }).toBuffer();
    case 'jxl': {
      if (encodeJxl === undefined) throw missingJxlEncoder();
      // A bare codestream: JPEG XL outputs carry no metadata, whatever the project keeps.
      const rgba = image.channels === 4 ? image : await readRaw(openRaw(image, seconds).ensureAlpha());
      return encodeJxl({ data: rgba.data, width: rgba.width, height: rgba.height, channels: 4 }, request.quality ?? defaultQuality.jxl);
    }
  }
}

/** sharp's libvips has no JPEG XL encoder (DESIGN.md §9), so the caller must bring one. */
export function missingJxlEncoder(): Error {
  return new Error('JPEG XL output needs options.encodeJxl: the libvips bundled with sharp cannot encode JPEG XL.');
}
