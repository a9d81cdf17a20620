// The single-threaded build. The `_mt` builds run libjxl on Emscripten pthreads, which need
// browser Web Workers (`self.onmessage`, `postMessage`) and a SharedArrayBuffer heap;
// @jsquash's own `init` never picks them in Node either.
import createEncoderCodec from '@jsquash/jxl/codec/enc/jxl_enc.js';
import { defaultOptions, type EncodeOptions } from '@jsquash/jxl/meta.js';
import { loadJxlCodec, type JxlCodecFactory } from './jxl-codec-loader.ts';

/** Raw RGBA pixels, 8 bits per sample, as sharp's `.ensureAlpha().raw()` gives them. */
interface RgbaImage { data: Buffer; width: number; height: number; channels: 4 }

interface JxlEncoderCodec {
  /** Returns a copy out of the WebAssembly heap, or null when libjxl refuses the input. */
  encode(data: Uint8Array, width: number, height: number, options: EncodeOptions): Uint8Array | null;
}

// libjxl's effort, timed on 800×600 photos on this 2-core machine (medians of 3–7 encodes at
// quality 75 and 90, other work running): efforts 3 and 4 take 100–130 ms, 5 takes 410–1,000 ms,
// 7 takes 600–1,200 ms. Going from 4 to 5 costs 4–5× the time for 5–16 % fewer bytes, which
// on-the-fly delivery cannot afford. Efforts 3 and 4 could not be told apart (time within
// noise, sizes within 3 % either way); 4 is the highest effort before that step.
const EFFORT = 4;

// The codec treats quality 100 as "lossless" (modular mode): on chelsea.png 2.3× the bytes
// of quality 99 and 4× the encode time. Loupe's `quality` means a lossy setting for every
// format, as it does for sharp's JPEG, WebP and AVIF, so 100 asks for the best lossy encode.
const MAX_LOSSY_QUALITY = 99;

const createEncoder: JxlCodecFactory<JxlEncoderCodec> = createEncoderCodec;
const wasmFile = new URL(import.meta.resolve('@jsquash/jxl/codec/enc/jxl_enc.wasm'));
let encoder: Promise<JxlEncoderCodec> | undefined;

/** Compiles the encoder on first use; concurrent first calls share one compilation. */
function loadEncoder(): Promise<JxlEncoderCodec> {
  if (!encoder) {
    encoder = loadJxlCodec(createEncoder, wasmFile);
    // A failed load is retried by the next call rather than remembered.
    encoder.catch(() => { encoder = undefined; });
  }
  return encoder;
}

/**
 * Encodes to a bare JPEG XL codestream (it starts FF 0A). The encoder runs on the calling
 * thread: about 100 ms of blocked event loop per 800×600 image at this effort.
 */
export async function encodeJxl(image: RgbaImage, quality: number): Promise<Buffer> {
  const { data, width, height } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`JPEG XL encode: bad dimensions ${width}×${height}`);
  }
  if (data.length !== width * height * 4) {
    throw new RangeError(`JPEG XL encode: ${data.length} bytes is not ${width}×${height} RGBA`);
  }
  if (!(quality >= 1 && quality <= 100)) throw new RangeError(`JPEG XL encode: quality ${quality} is not 1–100`);

  const codec = await loadEncoder();
  const options = { ...defaultOptions, effort: EFFORT, quality: Math.min(quality, MAX_LOSSY_QUALITY) };
  const encoded = codec.encode(data, width, height, options);
  if (!encoded) throw new Error(`JPEG XL encode of a ${width}×${height} image failed`);
  return Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}
