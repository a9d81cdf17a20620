/** Test helpers for the transform pipeline: decoded answers and synthetic inputs. */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { testImagesDir } from '../testing/test-images.ts';
import type { PipelineOptions } from './transform-pipeline.ts';

const imagesFolder = fileURLToPath(testImagesDir);

export function testImage(name: string): Buffer {
  return readFileSync(imagesFolder + name);
}

export const options: PipelineOptions = { maxInputPixels: 50_000_000, maxAnimationPixels: 50_000_000, timeoutSeconds: 30 };

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** Decodes an answer as the browser would, keeping its channels. */
export async function decode(encoded: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(encoded).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export function pixel(image: Pixels, x: number, y: number): number[] {
  const start = (y * image.width + x) * image.channels;
  return [...image.data.subarray(start, start + image.channels)];
}

/** Mean absolute difference of two equally long pixel buffers, per sample (0–255). */
export function meanDifference(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`${a.length} samples against ${b.length}`);
  let total = 0;
  for (let i = 0; i < a.length; i++) total += Math.abs((a[i] as number) - (b[i] as number));
  return total / a.length;
}

/** Rec. 709 luma of every pixel. */
export function luma(image: Pixels): Float64Array {
  const out = new Float64Array(image.width * image.height);
  for (let i = 0; i < out.length; i++) {
    const p = i * image.channels;
    out[i] = 0.2126 * image.data[p] + 0.7152 * image.data[p + 1] + 0.0722 * image.data[p + 2];
  }
  return out;
}

export function mean(values: Float64Array): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function standardDeviation(values: Float64Array): number {
  const average = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / values.length);
}

/** Mean absolute Laplacian of luma: how much fine detail and edge contrast there is. */
export function edgeEnergy(image: Pixels): number {
  const y = luma(image);
  const w = image.width;
  let total = 0;
  let count = 0;
  for (let row = 1; row < image.height - 1; row++) {
    for (let column = 1; column < w - 1; column++) {
      const i = row * w + column;
      total += Math.abs(4 * y[i] - y[i - 1] - y[i + 1] - y[i - w] - y[i + w]);
      count++;
    }
  }
  return total / count;
}

/** Whether two colours are within `tolerance` on every channel given in `expected`. */
export function near(actual: number[], expected: number[], tolerance = 8): boolean {
  return expected.every((value, i) => Math.abs(actual[i] - value) <= tolerance);
}

export type Rgb = [number, number, number];

/** A PNG drawn pixel by pixel. */
export async function synthetic(width: number, height: number, colourAt: (x: number, y: number) => Rgb): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(colourAt(x, y), (y * width + x) * 3);
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export const RED: Rgb = [255, 0, 0];
export const GREEN: Rgb = [0, 255, 0];
export const BLUE: Rgb = [0, 0, 255];
export const YELLOW: Rgb = [255, 255, 0];

/** 60×40, blue with a 10×10 red square in the top-left corner. */
export function redCorner(): Promise<Buffer> {
  return synthetic(60, 40, (x, y) => (x < 10 && y < 10 ? RED : BLUE));
}

/** The corner (`top-left`, …) where the red square of `redCorner` sits in an answer. */
export function redCornerOf(image: Pixels): string {
  const corners = {
    'top-left': pixel(image, 2, 2),
    'top-right': pixel(image, image.width - 3, 2),
    'bottom-left': pixel(image, 2, image.height - 3),
    'bottom-right': pixel(image, image.width - 3, image.height - 3),
  };
  const red = Object.entries(corners).filter(([, colour]) => near(colour, RED, 40));
  return red.map(([name]) => name).join(',');
}

/** 400×200 in quadrants: red top-left, green top-right, blue bottom-left, yellow bottom-right. */
export function quadrants(): Promise<Buffer> {
  return synthetic(400, 200, (x, y) => (y < 100 ? (x < 200 ? RED : GREEN) : x < 200 ? BLUE : YELLOW));
}
