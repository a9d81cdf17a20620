import { ImageDecodeError } from './image-decode-error.ts';
import { assertSafeSvg } from './svg-safety.ts';

/** What an SVG safety thread runs (svg-safety-threads.ts): the refusal's message, or undefined for a safe SVG. */
export default function checkSvg(svg: Uint8Array): string | undefined {
  try {
    assertSafeSvg(Buffer.from(svg.buffer, svg.byteOffset, svg.byteLength));
    return undefined;
  } catch (error) {
    if (error instanceof ImageDecodeError) return error.message;
    throw error;
  }
}
