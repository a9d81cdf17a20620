import type { Dispatcher } from 'undici';

/**
 * A response body read until it ends or passes `maxBytes` (then cut off: the caller keeps
 * what came, one chunk past the limit at most, and decides what a larger body means). The
 * connection is let go either way. A body that fails midway throws.
 */
export async function readAtMost(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > maxBytes) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks);
}
