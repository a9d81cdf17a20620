import { createHash, type Hash } from 'node:crypto';

const TOKEN = /\S+/g;
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
 */
export class VisibleText {
  readonly #hash: Hash = createHash('sha256');
  // Bit-sliced counters of how many shingle hashes had each bit set: plane j holds bit j of
  // the 32 counts of one half. Adding a hash is a ripple-carry add that usually stops after a
  // plane or two, instead of 64 separate counter updates.
  readonly #lowPlanes = new Int32Array(32);
  readonly #highPlanes = new Int32Array(32);
  #shingles = 0;
  #pending = '';
  #kept = '';
  #partial = '';
  #words = 0;
  // Word hashes of the last two words, for 3-word shingles: [lo, hi] each.
  #lo1 = 0;
  #hi1 = 0;
  #lo2 = 0;
  #hi2 = 0;

  append(chunk: string): void {
    TOKEN.lastIndex = 0;
    let end = 0;
    for (let match = TOKEN.exec(chunk); match !== null; match = TOKEN.exec(chunk)) {
      if (match.index === 0) {
        this.#partial += match[0];
      } else {
        this.boundary();
        this.#partial = match[0];
      }
      end = match.index + match[0].length;
    }
    if (end < chunk.length) this.boundary();
  }

  /** Ends the current word: whitespace, or an element boundary that separates words. */
  boundary(): void {
    if (this.#partial === '') return;
    if (this.#kept.length < KEPT_TEXT_CHARS) {
      // Sliced only at the cap: slicing a concatenation flattens it, and doing so per word is quadratic.
      const kept = this.#kept === '' ? this.#partial : `${this.#kept} ${this.#partial}`;
      this.#kept = kept.length > KEPT_TEXT_CHARS ? kept.slice(0, KEPT_TEXT_CHARS) : kept;
    }
    this.#word(this.#partial.toLowerCase());
    this.#partial = '';
  }

  finish(): VisibleTextSummary {
    this.boundary();
    if (this.#words > 0 && this.#words < 3) this.#addShingle(); // a short text is one shingle
    this.#hash.update(this.#pending);
    return { wordCount: this.#words, textHash: this.#hash.digest('hex'), simhash: this.#simhash(), text: this.#kept };
  }

  #word(word: string): void {
    this.#pending += this.#words === 0 ? word : ` ${word}`;
    if (this.#pending.length >= HASH_FLUSH_CHARS) {
      this.#hash.update(this.#pending);
      this.#pending = '';
    }
    this.#words++;
    // Two FNV-1a hashes with different offset bases, in one pass over the word.
    let lo = 0x811c9dc5;
    let hi = 0x050c5d1f;
    for (let i = 0; i < word.length; i++) {
      const unit = word.charCodeAt(i);
      lo = Math.imul(lo ^ unit, 0x01000193);
      hi = Math.imul(hi ^ unit, 0x01000193);
    }
    if (this.#words >= 3) this.#shingle(lo, hi);
    this.#lo2 = this.#lo1;
    this.#hi2 = this.#hi1;
    this.#lo1 = lo;
    this.#hi1 = hi;
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
