import { LoupeError } from '@loupe/contract';
import { BlockedAddressError } from '../../outbound/address-guard.ts';
import { ResponseTooLargeError, type GuardedFetcher } from '../../outbound/guarded-fetch.ts';

const urlError = (message: string) =>
  new LoupeError('validation_failed', { message, details: { fieldErrors: { url: [message] }, formErrors: [] } });

/** Fetches an image to import from a public address, under the crawler's address guard (DESIGN.md §7). */
export class ImageImporter {
  readonly #fetcher: GuardedFetcher;
  readonly #maxBytes: number;

  constructor(fetcher: GuardedFetcher, maxBytes: number) {
    this.#fetcher = fetcher;
    this.#maxBytes = maxBytes;
  }

  async fetch(url: string): Promise<{ data: Uint8Array; filename: string }> {
    let fetched;
    try {
      fetched = await this.#fetcher.fetch(url, {
        maxBytes: this.#maxBytes,
        timeoutMs: 15_000,
        headers: { accept: 'image/*', 'user-agent': 'LoupeImageImport/1.0' },
      });
    } catch (error) {
      if (error instanceof ResponseTooLargeError) {
        throw new LoupeError('payload_too_large', { message: `The image at this address is over ${this.#maxBytes} bytes.` });
      }
      if (error instanceof BlockedAddressError) throw urlError('This address is not public; Loupe does not fetch from it.');
      throw urlError(`Could not fetch the image: ${(error as Error).message}`);
    }
    if (fetched.status < 200 || fetched.status > 299) throw urlError(`The address answered HTTP ${fetched.status}.`);
    const last = new URL(fetched.url).pathname.split('/').filter(Boolean).at(-1);
    return { data: fetched.body, filename: last ? decodeURIComponent(last) : 'image' };
  }
}
