/** An indexable page with enough words to have a SimHash. */
export interface SimhashedPage {
  id: string;
  url: string;
  /** 64-bit SimHash, 16 hex digits. */
  simhash: string;
  /** Exact duplicates (same text hash) are `content/duplicate`'s, not near duplicates. */
  textHash: string | null;
}

export interface NearDuplicates {
  /** How many other pages are within the distance. */
  count: number;
  /** Up to three of their URLs. */
  urls: string[];
  /** The smallest distance in bits. */
  closest: number;
}

const BANDS = 4;
const BAND_BITS = 16;
/** A band value shared by more pages than this is boilerplate, not content: its pairs are not compared. */
const MAX_BUCKET = 500;

/**
 * Pages whose SimHashes differ by at most `maxBits` bits (audit-checks.md: 3 of 64), found
 * without comparing every pair: split the 64 bits into four 16-bit bands; two hashes within
 * 3 bits agree on at least one band (pigeonhole), so only pages sharing a band value are compared.
 */
export function findNearDuplicates(pages: readonly SimhashedPage[], maxBits = 3): Map<string, NearDuplicates> {
  const hashes = pages.map((page) => BigInt(`0x${page.simhash}`));
  const buckets = new Map<string, number[]>();
  hashes.forEach((hash, index) => {
    for (let band = 0; band < BANDS; band++) {
      const key = `${band}:${(hash >> BigInt(band * BAND_BITS)) & 0xffffn}`;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(index);
      else buckets.set(key, [index]);
    }
  });
  const found = new Map<string, NearDuplicates>();
  const compared = new Set<string>();
  const note = (index: number, other: number, bits: number) => {
    const page = pages[index] as SimhashedPage;
    const entry = found.get(page.id) ?? { count: 0, urls: [], closest: bits };
    entry.count += 1;
    entry.closest = Math.min(entry.closest, bits);
    if (entry.urls.length < 3) entry.urls.push((pages[other] as SimhashedPage).url);
    found.set(page.id, entry);
  };
  for (const bucket of buckets.values()) {
    if (bucket.length < 2 || bucket.length > MAX_BUCKET) continue;
    for (let i = 0; i < bucket.length; i++) {
      for (let j = i + 1; j < bucket.length; j++) {
        const a = bucket[i] as number;
        const b = bucket[j] as number;
        const pair = `${a} ${b}`;
        if (compared.has(pair)) continue;
        compared.add(pair);
        const left = pages[a] as SimhashedPage;
        const right = pages[b] as SimhashedPage;
        if (left.textHash !== null && left.textHash === right.textHash) continue;
        const bits = popcount((hashes[a] as bigint) ^ (hashes[b] as bigint));
        if (bits > maxBits) continue;
        note(a, b, bits);
        note(b, a, bits);
      }
    }
  }
  return found;
}

function popcount(value: bigint): number {
  let bits = 0;
  for (let rest = value; rest > 0n; rest &= rest - 1n) bits += 1;
  return bits;
}
