import { Piscina } from 'piscina';
import { ImageDecodeError } from './image-decode-error.ts';

/**
 * SVG uploads are checked beside the event loop: the XML parser reads some 5–15 MB a second,
 * so a 50 MB SVG held every other request of the process for seconds. One thread, started
 * with the first SVG and ended after a minute without one; uploads of SVG are rare.
 */
let pool: Piscina<Uint8Array, string | undefined> | undefined;

/** Throws ImageDecodeError ('unsupported') unless the SVG holds only static drawing (svg-safety.ts). */
export async function assertSafeSvgBesideLoop(svg: Uint8Array): Promise<void> {
  pool ??= new Piscina({
    filename: new URL('./svg-safety-thread.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    recordTiming: false,
  });
  const refusal = await pool.run(svg);
  if (refusal !== undefined) throw new ImageDecodeError('unsupported', refusal);
}
