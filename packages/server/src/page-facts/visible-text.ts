import { createHash, type Hash } from 'node:crypto';
import { isJsSpace } from './collapsed-text.ts';

const HASH_FLUSH_CHARS = 16_384;

/** What the content checks need from a page's visible text, without keeping the text. */
export interface VisibleTextSummary {
  /** Whitespace-separated tokens (§0 "Words"); U+00A0 and the other Unicode spaces separate words. */
  wordCount: number;
  /** SHA-256 (hex) of the words, lower-cased and joined by single spaces: `content/duplicate`. */
  textHash: string;
  /** 64-bit SimHash (16 hex digits) over 3-word shingles of the lower-cased words: `content/near-duplicate`. */
  simhash: string;
  /**
   * The words as written, joined by single spaces, up to KEPT_TEXT_CHARS: what search indexes
   * and custom rules read once the page itself is gone.
   */
  text: string;
}

/** Text kept of one page; enough for search and rules on any real page, bounded for a pathological one. */
export const KEPT_TEXT_CHARS = 100_000;

/**
 * Streams the visible words of a page into a word count, a hash of the normalized text and
 * a SimHash, in memory that does not grow with the page. Text arrives in pieces (entities
 * are separate events), so a word may continue into the next piece unless whitespace or a
 * block boundary (`boundary()`) came between them.
 *
 * Words are gathered as written and handled a batch at a time: the batch joined by spaces
 * is lower-cased in one call (whitespace stops every context of Unicode case mapping, so
 * that is each word lower-cased), hashed, and scanned for the SimHash's word hashes.
 */
export class VisibleText {
  readonly #hash: Hash = createHash('sha256');
  // Bit-sliced counters of how many shingle hashes had each bit set: plane j holds bit j of
  // the 32 counts of one half. Adding a hash is a ripple-carry add that usually stops after a
  // plane or two, instead of 64 separate counter updates.
  readonly #lowPlanes = new Int32Array(32);
  readonly #highPlanes = new Int32Array(32);
  #shingles = 0;
  /** Words as written, joined by single spaces, not yet hashed. */
  #batch = '';
  /** Whether the batch ends in a word the next piece may continue (no whitespace or boundary since). */
  #open = false;
  /** Joined batches of the start of the text, up to KEPT_TEXT_CHARS. */
  readonly #kept: string[] = [];
  #keptChars = 0;
  #words = 0;
  #hashedWords = 0;
  // Word hashes of the last two words, for 3-word shingles: [lo, hi] each.
  #lo1 = 0;
  #hi1 = 0;
  #lo2 = 0;
  #hi2 = 0;

  append(chunk: string): void {
    const end = chunk.length;
    let i = 0;
    // Start of the stretch of `chunk` copied to the batch as it is: words apart by single spaces.
    let from = -1;
    while (i < end) {
      const unit = chunk.charCodeAt(i);
      if (isJsSpace(unit)) {
        const space = i;
        while (++i < end && isJsSpace(chunk.charCodeAt(i)));
        if (from === -1) {
          this.boundary();
        } else if (i - space > 1 || unit !== 0x20 || i === end) {
          this.#batch += chunk.slice(from, space);
          from = -1;
          this.boundary();
        }
        continue;
      }
      const start = i;
      while (++i < end && !isJsSpace(chunk.charCodeAt(i)));
      if (from !== -1) {
        this.#words++;
        continue;
      }
      from = start;
      // A word at the start of the piece continues the one before it, unless a boundary came between.
      if (start === 0 && this.#open) continue;
      if (this.#batch !== '') this.#batch += ' ';
      this.#words++;
    }
    if (from !== -1) {
      this.#batch += from === 0 ? chunk : chunk.slice(from);
      this.#open = true;
    }
  }

  /** Ends the current word: whitespace, or an element boundary that separates words. */
  boundary(): void {
    this.#open = false;
    if (this.#batch.length >= HASH_FLUSH_CHARS) this.#flush();
  }

  finish(): VisibleTextSummary {
    this.boundary();
    this.#flush();
    if (this.#words > 0 && this.#words < 3) this.#addShingle(); // a short text is one shingle
    const kept = this.#kept.join(' ');
    return {
      wordCount: this.#words,
      textHash: this.#hash.digest('hex'),
      simhash: this.#simhash(),
      text: kept.length > KEPT_TEXT_CHARS ? kept.slice(0, KEPT_TEXT_CHARS) : kept,
    };
  }

  #flush(): void {
    const text = this.#batch;
    if (text === '') return;
    this.#batch = '';
    if (this.#keptChars < KEPT_TEXT_CHARS) {
      this.#kept.push(text);
      this.#keptChars += text.length + 1;
    }
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
