import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/*
 * The file that holds one cached variant:
 *   magic "LOUPEVC1" | u32 header length | u32 data length | u32 CRC-32 of data | header JSON | data
 * with `{ key, contentType }` in the header. One file rather than a data file and a sidecar,
 * because one rename then publishes the bytes and their description together. The key is kept
 * so that `VariantCache.open()` can rebuild its key index (which purging by prefix needs) and a
 * read refuses a file that belongs to another key. The lengths expose truncation from the
 * header alone; the CRC exposes corruption when the data is read. The magic carries a format
 * version: files of another version are not recognised, so they are dropped as damaged.
 */
const MAGIC = Buffer.from('LOUPEVC1', 'latin1');
const PREFIX_BYTES = MAGIC.length + 12;
/** Enough for the header of any realistic key, so `readVariantFileHeader` reads once. */
const HEADER_PROBE_BYTES = 4096;

interface Header {
  key: string;
  contentType: string;
  dataOffset: number;
  dataLength: number;
  crc: number;
}

/** The name a variant's file takes, and the basis of its ETag. */
export function variantHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The file's contents, in pieces to write without copying the data. */
export function encodeVariantFile(key: string, contentType: string, data: Buffer): Buffer[] {
  const header = Buffer.from(JSON.stringify({ key, contentType }));
  const prefix = Buffer.alloc(PREFIX_BYTES);
  MAGIC.copy(prefix);
  prefix.writeUInt32BE(header.length, MAGIC.length);
  prefix.writeUInt32BE(data.length, MAGIC.length + 4);
  prefix.writeUInt32BE(crc32(data), MAGIC.length + 8);
  return [prefix, header, data];
}

/** The variant stored in `file`, or undefined if the file is damaged or holds another key. */
export function decodeVariantFile(file: Buffer, key: string): { contentType: string; data: Buffer } | undefined {
  const header = parseHeader(file, file.length);
  if (!header || header.key !== key) return undefined;
  const data = file.subarray(header.dataOffset);
  if (data.length !== header.dataLength || crc32(data) !== header.crc) return undefined;
  return { contentType: header.contentType, data };
}

/**
 * The key, size and mtime of a cache file, or undefined if it is not a complete variant file of
 * the key whose hash is `hash`. The CRC is left to the first read: checking it here would read
 * the whole cache at every start.
 */
export async function readVariantFileHeader(
  path: string,
  hash: string,
): Promise<{ key: string; size: number; mtimeMs: number } | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size, mtimeMs } = await handle.stat();
    let probe = Buffer.alloc(Math.min(HEADER_PROBE_BYTES, size));
    let { bytesRead } = await handle.read(probe, 0, probe.length, 0);
    if (bytesRead >= PREFIX_BYTES) {
      const needed = PREFIX_BYTES + probe.readUInt32BE(MAGIC.length);
      if (needed > bytesRead && needed <= size) {
        probe = Buffer.alloc(needed);
        ({ bytesRead } = await handle.read(probe, 0, needed, 0));
      }
    }
    const header = parseHeader(probe, bytesRead);
    if (!header || size !== header.dataOffset + header.dataLength || variantHash(header.key) !== hash) return undefined;
    return { key: header.key, size, mtimeMs };
  } finally {
    await handle.close();
  }
}

function parseHeader(bytes: Buffer, available: number): Header | undefined {
  if (available < PREFIX_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const dataOffset = PREFIX_BYTES + bytes.readUInt32BE(MAGIC.length);
  if (available < dataOffset) return undefined;
  try {
    const { key, contentType } = JSON.parse(bytes.toString('utf8', PREFIX_BYTES, dataOffset)) as Record<string, unknown>;
    if (typeof key !== 'string' || typeof contentType !== 'string') return undefined;
    return {
      key,
      contentType,
      dataOffset,
      dataLength: bytes.readUInt32BE(MAGIC.length + 4),
      crc: bytes.readUInt32BE(MAGIC.length + 8),
    };
  } catch {
    return undefined;
  }
}
