import { createHash, type Hash } from 'node:crypto';

/** What the duplicate checks compare pages by, without keeping their text. */
export interface TextDigests {
  /** SHA-256 (hex) of the words, lower-cased and joined by single spaces: `content/duplicate`. */
  textHash: string;
  /** 64-bit SimHash (16 hex digits) over 3-word shingles of the lower-cased words: `content/near-duplicate`. */
  simhash: string;
}

/**
 * Digests a text given in batches of words joined by single spaces (`VisibleText`'s). Each
 * batch is lower-cased in one call (whitespace stops every context of Unicode case mapping,
 * so that is each word lower-cased), hashed, and scanned for the SimHash's word hashes.
 */
export class TextDigest {
  readonly #hash: Hash = createHash('sha256');
  // Bit-sliced counters of how many shingle hashes had each bit set: plane j holds bit j of
  // the 32 counts of one half. Adding a hash is a ripple-carry add that usually stops after a
  // plane or two, instead of 64 separate counter updates.
  readonly #lowPlanes = new Int32Array(32);
  readonly #highPlanes = new Int32Array(32);
  #shingles = 0;
  #hashedWords = 0;
  // Word hashes of the last two words, for 3-word shingles: [lo, hi] each.
  #lo1 = 0;
  #hi1 = 0;
  #lo2 = 0;
  #hi2 = 0;

  finish(): TextDigests {
    if (this.#hashedWords > 0 && this.#hashedWords < 3) this.#addShingle(); // a short text is one shingle
    return { textHash: this.#hash.digest('hex'), simhash: this.#simhash() };
  }

  add(text: string): void {
    const lower = text.toLowerCase();
    this.#hash.update(this.#hashedWords === 0 ? lower : ` ${lower}`);
    // Two FNV-1a hashes with different offset bases per word, in one pass over the batch.
    let lo = 0x811c9dc5;
    let hi = 0x050c5d1f;
    for (let i = 0; i <= lower.length; i++) {
      const unit = i === lower.length ? 0x20 : lower.charCodeAt(i);
      if (unit !== 0x20) {
        lo = Math.imul(lo ^ unit, 0x01000193);
        hi = Math.imul(hi ^ unit, 0x01000193);
        continue;
      }
      if (++this.#hashedWords >= 3) this.#shingle(lo, hi);
      this.#lo2 = this.#lo1;
      this.#hi2 = this.#hi1;
      this.#lo1 = lo;
      this.#hi1 = hi;
      lo = 0x811c9dc5;
      hi = 0x050c5d1f;
    }
  }

  #shingle(lo: number, hi: number): void {
    this.#count(
      fmix32(this.#lo2 ^ rotl(this.#lo1, 11) ^ rotl(lo, 22)),
      fmix32(this.#hi2 ^ rotl(this.#hi1, 13) ^ rotl(hi, 26) ^ 0x9e3779b9),
    );
  }

  #addShingle(): void {
    this.#count(fmix32(this.#lo2 ^ rotl(this.#lo1, 11)), fmix32(this.#hi2 ^ rotl(this.#hi1, 13) ^ 0x9e3779b9));
  }

  #count(lo: number, hi: number): void {
    this.#shingles++;
    addToPlanes(this.#lowPlanes, lo);
    addToPlanes(this.#highPlanes, hi);
  }

  /** Each bit is set when more than half of the shingle hashes had it set. */
  #simhash(): string {
    const half = (planes: Int32Array): string => {
      let word = 0;
      for (let bit = 0; bit < 32; bit++) {
        let ones = 0;
        for (let plane = 31; plane >= 0; plane--) ones = ones * 2 + (((planes[plane] as number) >>> bit) & 1);
        if (ones * 2 > this.#shingles) word |= 1 << bit;
      }
      return (word >>> 0).toString(16).padStart(8, '0');
    };
    return half(this.#highPlanes) + half(this.#lowPlanes);
  }
}

function addToPlanes(planes: Int32Array, value: number): void {
  let carry = value | 0;
  for (let plane = 0; carry !== 0 && plane < 32; plane++) {
    const current = planes[plane] as number;
    planes[plane] = current ^ carry;
    carry &= current;
  }
}

/** MurmurHash3's finalizer: spreads FNV's weak high bits over all 32. */
function fmix32(value: number): number {
  let hash = value ^ (value >>> 16);
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}
