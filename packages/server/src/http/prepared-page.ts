import type { Page } from '@loupe/contract';

const utf8 = new TextEncoder();

/**
 * A page of an operation's items serialised already: their JSON's bytes, and the next page's
 * cursor. A service keeping answers to serve them again keeps them so (search keeps recent
 * pages of hits): bytes outside the JavaScript heap, which its collector never copies or marks,
 * sent as they are each time (bench/README.md, "Encoder settings and kept answers").
 */
export class PreparedPage<T> {
  readonly itemsJson: Buffer;
  readonly nextCursor: string | null;

  private constructor(itemsJson: Buffer, nextCursor: string | null) {
    this.itemsJson = itemsJson;
    this.nextCursor = nextCursor;
  }

  static of<T>(page: Page<T>): PreparedPage<T> {
    // An ArrayBuffer of its own, not a slice of Buffer's shared pool, which a kept page would hold whole.
    const bytes = utf8.encode(JSON.stringify(page.items));
    return new PreparedPage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), page.nextCursor);
  }

  /** The items parsed again (to check them against the operation's schema). */
  parsedItems(): T[] {
    return JSON.parse(this.itemsJson.toString('utf8')) as T[];
  }
}
