import { LoupeError } from '@loupe/contract';
import { BlockedAddressError } from '../outbound/address-guard.ts';
import { type GuardedFetcher, ResponseTooLargeError } from '../outbound/guarded-fetch.ts';

const urlError = (message: string) =>
  new LoupeError('validation_failed', { message, details: { fieldErrors: { url: [message] }, formErrors: [] } });

/** The longest wait for any one piece of an answer; the deadline bounds the whole. */
const IDLE_TIMEOUT_MS = 15_000;

export interface ImportLimits {
  maxBytes: number;
  /** The whole import, redirects and body included: a source sending a byte at a time stops here. */
  deadlineSeconds: number;
}

/** The decoded last path segment of `url`, the imported file's name ('image' when there is none). */
function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  if (last === undefined) return 'image';
  try {
    return decodeURIComponent(last);
  } catch {
    throw urlError(`The address ${url.href} is not valid percent-encoded UTF-8, so it names no file.`);
  }
}

/** Fetches an image to import from a public address, under the crawler's address guard (DESIGN.md §7). */
export class ImageImporter {
  readonly #fetcher: GuardedFetcher;
  readonly #limits: ImportLimits;

  constructor(fetcher: GuardedFetcher, limits: ImportLimits) {
    this.#fetcher = fetcher;
    this.#limits = limits;
  }

  async fetch(url: string): Promise<{ data: Uint8Array; filename: string }> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw urlError('This is not a valid address.');
    }
    fileNameOf(target);
    const { maxBytes, deadlineSeconds } = this.#limits;
    const deadline = AbortSignal.timeout(deadlineSeconds * 1000);
    let fetched: Awaited<ReturnType<GuardedFetcher['fetch']>>;
    try {
      fetched = await this.#fetcher.fetch(url, {
        maxBytes,
        timeoutMs: Math.min(IDLE_TIMEOUT_MS, deadlineSeconds * 1000),
        signal: deadline,
        headers: { accept: 'image/*', 'user-agent': 'LoupeImageImport/1.0' },
      });
    } catch (error) {
      if (error instanceof ResponseTooLargeError) {
        throw new LoupeError('payload_too_large', { message: `The image at this address is over ${maxBytes} bytes.` });
      }
      if (error instanceof BlockedAddressError) throw urlError('This address is not public; Loupe does not fetch from it.');
      if (deadline.aborted) {
        throw urlError(`The image at this address did not arrive within ${deadlineSeconds} second${deadlineSeconds === 1 ? '' : 's'}.`);
      }
      throw urlError(`Could not fetch the image: ${(error as Error).message}`);
    }
    if (fetched.status < 200 || fetched.status > 299) throw urlError(`The address answered HTTP ${fetched.status}.`);
    return { data: fetched.body, filename: fileNameOf(new URL(fetched.url)) };
  }
}
