/**
 * A word's matches in one generation of the index: the documents' ordinals in ascending order
 * and each one's score, stored as varint deltas (a common word's ordinals are a byte apart) and
 * little-endian float32s.
 */
export interface PostingList {
  ordinals: Uint32Array;
  scores: Float32Array;
  /** The highest score (0 when none is higher): the most a document of the list adds to a sum. */
  top: number;
}

/** A list of the ordinals and scores, its top score read once as it is made. */
export function postingList(ordinals: Uint32Array, scores: Float32Array): PostingList {
  let top = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i] > top) top = scores[i];
  return { ordinals, scores, top };
}

/**
 * Writes a whole number below 2^32 as a varint at `at`: seven bits a byte, the lowest first,
 * the top bit set on every byte but the last. Answers where the next one goes.
 */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

/** Reads the varints of writeVarint one after another. */
export class VarintReader {
  readonly #bytes: Uint8Array;
  #at = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  next(): number {
    let byte = this.#bytes[this.#at++];
    // Most are a byte: a position's distance from the one before, an ordinal's from the last.
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    do {
      byte = this.#bytes[this.#at++];
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte & 0x80);
    return value;
  }
}

/** How many varints the bytes hold: each ends with the one byte of it whose top bit is clear. */
export function countVarints(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] < 0x80) count++;
  return count;
}

export function encodeOrdinals(ordinals: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(ordinals.length * 5);
  let at = 0;
  let previous = 0;
  for (let i = 0; i < ordinals.length; i++) {
    const delta = ordinals[i] - previous;
    if (delta < 0 || (i > 0 && delta === 0)) throw new RangeError('ordinals must ascend');
    previous = ordinals[i];
    at = writeVarint(bytes, at, delta);
  }
  return bytes.slice(0, at);
}

/** Decodes `count` ordinals into `ordinals` (a new array unless given: a longer list's part, shared memory). */
export function decodeOrdinals(bytes: Uint8Array, count: number, ordinals: Uint32Array = new Uint32Array(count)): Uint32Array {
  const deltas = new VarintReader(bytes);
  let previous = 0;
  for (let i = 0; i < count; i++) ordinals[i] = previous += deltas.next();
  return ordinals;
}

export function encodeScores(scores: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(scores.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < scores.length; i++) view.setFloat32(i * 4, scores[i], true);
  return bytes;
}

const LITTLE_ENDIAN = new Uint8Array(new Float32Array([1]).buffer)[3] === 0x3f;

export function decodeScores(bytes: Uint8Array, count: number): Float32Array {
  // The stored bytes as they are, where the platform reads them so and they start on a float.
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, count);
  const scores = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < count; i++) scores[i] = view.getFloat32(i * 4, true);
  return scores;
}

/**
 * A stored list decoded into memory every thread can read (one SharedArrayBuffer: the
 * ordinals, then the scores): posted from a reader thread to the event loop and back, it is
 * shared rather than copied, so the process keeps each list once whichever thread reads it.
 */
export function decodeSharedList(ordinalBytes: Uint8Array, scoreBytes: Uint8Array, count: number): PostingList {
  const memory = new SharedArrayBuffer(count * 8);
  const ordinals = decodeOrdinals(ordinalBytes, count, new Uint32Array(memory, 0, count));
  const scores = new Float32Array(memory, count * 4, count);
  scores.set(decodeScores(scoreBytes, count));
  return postingList(ordinals, scores);
}
