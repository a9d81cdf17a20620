// The single-threaded build. The `_mt` builds run libjxl on Emscripten pthreads, which need
// browser Web Workers (`self.onmessage`, `postMessage`) and a SharedArrayBuffer heap;
// @jsquash's own `init` never picks them in Node either.
import createEncoderCodec from '@jsquash/jxl/codec/enc/jxl_enc.js';
import { defaultOptions, type EncodeOptions } from '@jsquash/jxl/meta.js';
import { type JxlCodecFactory, loadJxlCodec } from './jxl-codec-loader.ts';

/** Raw RGBA pixels, 8 bits per sample, as sharp's `.ensureAlpha().raw()` gives them. */
interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}

interface JxlEncoderCodec {
  /** Returns a copy out of the WebAssembly heap, or null when libjxl refuses the input. */
  encode(data: Uint8Array, width: number, height: number, options: EncodeOptions): Uint8Array | null;
}

// The highest effort before encode time jumps 4–5× for a few per cent fewer bytes, which
// on-the-fly delivery cannot afford (bench/README.md, "Encoder settings and kept answers").
const EFFORT = 4;

// The codec treats quality 100 as lossless (modular mode: far more bytes and time). Loupe's
// `quality` is a lossy setting for every format, so 100 asks for the best lossy encode.
const MAX_LOSSY_QUALITY = 99;

const createEncoder: JxlCodecFactory<JxlEncoderCodec> = createEncoderCodec;
const wasmFile = new URL(import.meta.resolve('@jsquash/jxl/codec/enc/jxl_enc.wasm'));
let encoder: Promise<JxlEncoderCodec> | undefined;

/** Compiles the encoder on first use; concurrent first calls share one compilation. */
function loadEncoder(): Promise<JxlEncoderCodec> {
  if (!encoder) {
    encoder = loadJxlCodec(createEncoder, wasmFile);
    // A failed load is retried by the next call rather than remembered.
    encoder.catch(() => {
      encoder = undefined;
    });
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
