/** Test helpers for animations: real photos made into frames, and answers decoded frame by frame. */

import sharp from 'sharp';
import { BLUE, GREEN, type Pixels, RED, type Rgb, YELLOW } from './test-pixels.ts';

/** The colour of frame `index`'s marker: the top-left quarter of every frame. */
export const markerColour = (index: number): Rgb => [RED, GREEN, BLUE, YELLOW][index % 4] as Rgb;

/**
 * An animation of `frames` frames of `width`×`height`, each a different crop of `photo` with the
 * top-left quarter painted in markerColour(i); delays 100, 200, 300… ms (GIF counts them in
 * centiseconds), looped `loop` times.
 */
export async function animationFromPhoto(
  photo: Buffer,
  options: { frames: number; width: number; height: number; format: 'gif' | 'webp'; loop?: number },
): Promise<{ data: Buffer; delay: number[] }> {
  const { frames, width, height } = options;
  const source = await sharp(photo)
    .resize(width * 2, height * 2, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const stack = Buffer.alloc(width * height * 3 * frames);
  for (let index = 0; index < frames; index++) {
    const left = index % width;
    const top = Math.floor((index * 7) % height);
    const colour = markerColour(index);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const to = ((index * height + y) * width + x) * 3;
        const marked = x < width / 2 && y < height / 2;
        for (let c = 0; c < 3; c++) stack[to + c] = marked ? colour[c] : (source[((top + y) * width * 2 + left + x) * 3 + c] as number);
      }
    }
  }
  const delay = Array.from({ length: frames }, (_, index) => 100 * ((index % 5) + 1));
  const raw = { width, height: height * frames, channels: 3 as const, pageHeight: height };
  const encoder = sharp(stack, { raw, animated: true });
  const timing = { delay, loop: options.loop ?? 0 };
  const data = await (options.format === 'gif' ? encoder.gif(timing) : encoder.webp({ ...timing, quality: 90 })).toBuffer();
  return { data, delay };
}

export interface DecodedAnimation {
  format: string;
  frames: Pixels[];
  /** The frame size libvips reports (pageHeight), and the count of frames in the file's header. */
  width: number;
  pageHeight: number;
  pages: number;
  delay?: number[];
  loop?: number;
}

/** Every frame of an encoded answer, as RGBA pixels. */
export async function decodeFrames(encoded: Buffer): Promise<DecodedAnimation> {
  const metadata = await sharp(encoded).metadata();
  const { data, info } = await sharp(encoded, { animated: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pageHeight = info.pageHeight ?? info.height;
  const pages = metadata.pages ?? 1;
  const bytes = info.width * pageHeight * 4;
  const frames = Array.from({ length: info.height / pageHeight }, (_, index) => ({
    data: data.subarray(index * bytes, (index + 1) * bytes),
    width: info.width,
    height: pageHeight,
    channels: 4,
  }));
  return { format: metadata.format, frames, width: info.width, pageHeight, pages, delay: metadata.delay, loop: metadata.loop };
}
