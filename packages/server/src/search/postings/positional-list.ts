import { countVarints, decodeOrdinals, encodeOrdinals, VarintReader, writeVarint } from './posting-list.ts';

/**
 * A lexeme's matches in a generation with where each one is: ordinals ascending; the positions
 * of match i are `entries[starts[i]]` to `entries[starts[i + 1] - 1]`, tsvector WordEntryPos
 * values (the weight in the top two bits), ascending as the tsvector keeps them.
 */
export interface PositionalList {
  ordinals: Uint32Array;
  starts: Uint32Array;
  entries: Uint16Array;
  /**
   * Each match's ts_rank OR term (ts-rank.ts's orTerm), once a query of words ORed needed them
   * (positional-ranking.ts's keepOrTerms): in memory the ranking threads share, kept as long as
   * the list is, outside the list cache's count.
   */
  orTerms?: Float32Array;
}

/** A list under construction, a match at a time in ascending ordinal order. */
export class PositionalListWriter {
  readonly #ordinals: number[] = [];
  readonly #positions: number[] = [];

  add(ordinal: number, entries: ArrayLike<number>): void {
    this.#ordinals.push(ordinal);
    this.#positions.push(entries.length);
    let previous = 0;
    for (let i = 0; i < entries.length; i++) {
      const position = entries[i] & 0x3fff;
      this.#positions.push(((position - previous) << 2) | (entries[i] >> 14));
      previous = position;
    }
  }

  get matches(): number {
    return this.#ordinals.length;
  }

  /** Ordinals as varint deltas; positions as varints: a match's count, then each position's distance from the one before (from 0) times four, plus its weight. */
  encode(): { ordinals: Uint8Array; positions: Uint8Array } {
    return { ordinals: encodeOrdinals(this.#ordinals), positions: encodeVarints(this.#positions) };
  }
}

function encodeVarints(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 3);
  let at = 0;
  for (const value of values) at = writeVarint(bytes, at, value);
  return bytes.slice(0, at);
}

/**
 * One list from its blocks' stored parts, in block order (ordinals already absolute), decoded in
 * memory threads share: the ranking threads read it where it is (ranking-threads.ts).
 */
export function decodePositionalList(blocks: readonly { matches: number; ordinals: Uint8Array; positions: Uint8Array }[]): PositionalList {
  const total = blocks.reduce((sum, block) => sum + block.matches, 0);
  // Counted first (a varint a match besides its positions'), so the entries are made once at their size.
  const positions = blocks.reduce((sum, block) => sum + countVarints(block.positions) - block.matches, 0);
  const memory = new SharedArrayBuffer(total * 4 + (total + 1) * 4 + positions * 2);
  const ordinals = new Uint32Array(memory, 0, total);
  const starts = new Uint32Array(memory, total * 4, total + 1);
  const entries = new Uint16Array(memory, (2 * total + 1) * 4, positions);
  let match = 0;
  let entry = 0;
  for (const block of blocks) {
    decodeOrdinals(block.ordinals, block.matches, ordinals.subarray(match, match + block.matches));
    const varints = new VarintReader(block.positions);
    for (let i = 0; i < block.matches; i++) {
      const count = varints.next();
      starts[match++] = entry;
      let position = 0;
      for (let p = 0; p < count; p++) {
        const value = varints.next();
        position += value >> 2;
        entries[entry++] = ((value & 3) << 14) | position;
      }
    }
  }
  starts[total] = entry;
  return { ordinals, starts, entries };
}

/** Bytes held by a decoded list (for a cache's bound). */
export const sizeOfList = (list: PositionalList) => list.ordinals.byteLength + list.starts.byteLength + list.entries.byteLength + 64;
