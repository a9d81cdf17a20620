import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import createDecoderCodec from '@jsquash/jxl/codec/dec/jxl_dec.js';
import sharp from 'sharp';
import { testImagesDir } from '../testing/test-images.ts';
import { type JxlCodecFactory, loadJxlCodec } from './jxl-codec-loader.ts';
import { encodeJxl } from './jxl-encoder.ts';

interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}
interface DecodedImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}
interface JxlDecoderCodec {
  decode(data: Uint8Array): DecodedImage | null;
}

const photo = new URL('chelsea.png', testImagesDir);
const CODESTREAM = Buffer.from([0xff, 0x0a]);
const CONTAINER = Buffer.from([0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]);

function isJxl(file: Buffer): boolean {
  return file.subarray(0, 2).equals(CODESTREAM) || file.subarray(0, 12).equals(CONTAINER);
}

async function readRgba(path: URL): Promise<RgbaImage> {
  const { data, info } = await sharp(path.pathname).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 4);
  return { data, width: info.width, height: info.height, channels: 4 };
}

/** A copy of `image` whose top-left `size`×`size` square is fully transparent. */
function withTransparentCorner(image: RgbaImage, size: number): RgbaImage {
  const data = Buffer.from(image.data);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data[(y * image.width + x) * 4 + 3] = 0;
  return { ...image, data };
}

function inCorner(pixel: number, width: number, size: number): boolean {
  return pixel % width < size && Math.floor(pixel / width) < size;
}

/** Mean absolute difference of the R, G and B samples of the pixels `include` accepts. */
function meanColourDifference(a: Uint8Array, b: Uint8ClampedArray, include: (pixel: number) => boolean = () => true): number {
  let sum = 0;
  let samples = 0;
  for (let pixel = 0; pixel < a.length / 4; pixel++) {
    if (!include(pixel)) continue;
    for (let channel = 0; channel < 3; channel++) sum += Math.abs(a[pixel * 4 + channel] - b[pixel * 4 + channel]);
    samples += 3;
  }
  return sum / samples;
}

describe('JPEG XL encoder', () => {
  let original: RgbaImage;
  let decoder: JxlDecoderCodec;

  function decode(file: Buffer): DecodedImage {
    const image = decoder.decode(file);
    assert.ok(image, 'the decoder refused the file');
    return image;
  }

  before(async () => {
    original = await readRgba(photo);
    const createDecoder: JxlCodecFactory<JxlDecoderCodec> = createDecoderCodec;
    decoder = await loadJxlCodec(createDecoder, new URL(import.meta.resolve('@jsquash/jxl/codec/dec/jxl_dec.wasm')));
  });

  it('serves concurrent first calls from one compilation of the encoder', async (t) => {
    // A module URL of its own gives a fresh copy of the encoder module, whatever ran before.
    const fresh = new URL('./jxl-encoder.ts?first-calls', import.meta.url).href;
    const { encodeJxl: firstEncode } = (await import(fresh)) as typeof import('./jxl-encoder.ts');
    const compile = t.mock.method(WebAssembly, 'compile');

    const [high, low] = await Promise.all([firstEncode(original, 90), firstEncode(original, 50)]);

    assert.ok(isJxl(high) && isJxl(low));
    assert.equal(compile.mock.callCount(), 1);
  });

  it('encodes a photo to JPEG XL that decodes to the same size and nearly the same pixels', async () => {
    const file = await encodeJxl(original, 90);

    assert.ok(isJxl(file), `starts ${file.subarray(0, 12).toString('hex')}`);
    const decoded = decode(file);
    assert.equal(decoded.width, original.width);
    assert.equal(decoded.height, original.height);
    // Measured 2.2 at quality 90 on this photo.
    assert.ok(meanColourDifference(original.data, decoded.data) < 4);
  });

  it('gives a smaller file at a lower quality', async () => {
    const high = await encodeJxl(original, 90);
    const low = await encodeJxl(original, 40);

    assert.ok(low.length < high.length, `quality 40: ${low.length} bytes, quality 90: ${high.length}`);
  });

  it('keeps a transparent region transparent and the rest opaque', async () => {
    const corner = 64;
    const image = withTransparentCorner(original, corner);

    const decoded = decode(await encodeJxl(image, 90));

    // libjxl codes alpha lossily at lossy qualities: measured 0–1 in the corner, 255 outside.
    for (let pixel = 0; pixel < decoded.width * decoded.height; pixel++) {
      const alpha = decoded.data[pixel * 4 + 3];
      if (inCorner(pixel, decoded.width, corner)) assert.ok(alpha <= 8, `alpha ${alpha} at pixel ${pixel}`);
      else assert.ok(alpha >= 247, `alpha ${alpha} at pixel ${pixel}`);
    }
    const opaque = (pixel: number) => !inCorner(pixel, decoded.width, corner);
    assert.ok(meanColourDifference(image.data, decoded.data, opaque) < 4);
  });

  it('treats quality 100 as the best lossy encode, not a lossless one', async () => {
    const best = await encodeJxl(original, 100);
    const lossy = await encodeJxl(original, 99);

    // Not deepEqual: its diff of two 100 kB buffers takes minutes.
    assert.ok(best.equals(lossy), `quality 100: ${best.length} bytes, quality 99: ${lossy.length}`);
  });

  it('refuses pixels that do not fill the stated dimensions', async () => {
    const short = { ...original, data: original.data.subarray(4) };

    await assert.rejects(encodeJxl(short, 80), RangeError);
  });

  it('refuses a quality outside 1–100', async () => {
    await assert.rejects(encodeJxl(original, 0), RangeError);
    await assert.rejects(encodeJxl(original, 101), RangeError);
    await assert.rejects(encodeJxl(original, Number.NaN), RangeError);
  });
});
