import { crc32 } from 'node:zlib';

/**
 * Removes EXIF (GPS included), XMP, IPTC and comments from an original without re-encoding
 * it: the pixels, the ICC profile and the EXIF orientation (rewritten as the only tag, so a
 * photo stored sideways still shows upright) are kept. Returns undefined for formats whose
 * containers this does not edit (AVIF, HEIF, TIFF, SVG) or bytes it cannot follow.
 */
export function stripMetadata(data: Buffer, format: string, orientation = 1): Buffer | undefined {
  try {
    switch (format) {
      case 'jpeg':
        return stripJpeg(data, orientation);
      case 'png':
        return stripPng(data, orientation);
      case 'webp':
        return stripWebp(data, orientation);
      case 'gif':
        return stripGif(data);
      default:
        return undefined;
    }
  } catch (error) {
    if (error instanceof MalformedError || error instanceof RangeError) return undefined;
    throw error;
  }
}

class MalformedError extends Error {}

function check(condition: boolean): asserts condition {
  if (!condition) throw new MalformedError();
}

/** A big-endian TIFF block whose only tag is Orientation (0x0112, one SHORT): 26 bytes. */
function orientationExif(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  return tiff;
}

const needsOrientation = (orientation: number) => Number.isInteger(orientation) && orientation >= 2 && orientation <= 8;

/**
 * JPEG keeps JFIF (APP0), the ICC profile (APP2 ICC_PROFILE) and Adobe (APP14, which says
 * how to read the colour channels). Everything after the first image's EOI goes too: phones
 * append secondary images there (MPF gain and depth maps) with metadata of their own.
 */
function stripJpeg(data: Buffer, orientation: number): Buffer {
  check(data[0] === 0xff && data[1] === 0xd8);
  const parts: Buffer[] = [data.subarray(0, 2)];
  let orientationAt = 1;
  let at = 2;
  for (;;) {
    check(at + 1 < data.length && data[at] === 0xff);
    const marker = data[at + 1] as number;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9) {
      parts.push(data.subarray(at, at + 2));
      break;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      parts.push(data.subarray(at, at + 2));
      at += 2;
      continue;
    }
    const end = at + 2 + data.readUInt16BE(at + 2);
    check(end <= data.length);
    const segment = data.subarray(at, end);
    if (keepsJpegSegment(marker, segment)) {
      parts.push(segment);
      if (marker === 0xe0 && parts.length === 2) orientationAt = 2;
    }
    at = end;
    if (marker === 0xda) {
      // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
      let next = at;
      while (next + 1 < data.length && !(data[next] === 0xff && data[next + 1] !== 0 && !isRestart(data[next + 1] as number))) next++;
      check(next + 1 < data.length);
      parts.push(data.subarray(at, next));
      at = next;
    }
  }
  if (needsOrientation(orientation)) {
    const exif = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), orientationExif(orientation)]);
    const header = Buffer.from([0xff, 0xe1, 0, 0]);
    header.writeUInt16BE(exif.length + 2, 2);
    parts.splice(orientationAt, 0, header, exif);
  }
  return Buffer.concat(parts);
}

const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

function keepsJpegSegment(marker: number, segment: Buffer): boolean {
  const signature = (text: string) => segment.subarray(4, 4 + text.length).toString('latin1') === text;
  if (marker === 0xe0) return signature('JFIF\0');
  if (marker === 0xe2) return signature('ICC_PROFILE\0');
  if (marker === 0xee) return signature('Adobe');
  // APP1 (EXIF, XMP), APP13 (IPTC), the other APPn and COM hold metadata; the rest is the image.
  return !((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** EXIF, and text chunks: XMP is an iTXt, and tEXt/zTXt carry free-form fields such as Author. */
const PNG_METADATA = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

function pngChunk(type: string, body: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write(type, 4, 'latin1');
  body.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return chunk;
}

function stripPng(data: Buffer, orientation: number): Buffer {
  check(data.subarray(0, 8).equals(PNG_SIGNATURE));
  const parts: Buffer[] = [PNG_SIGNATURE];
  let at = 8;
  while (at < data.length) {
    const end = at + 12 + data.readUInt32BE(at);
    check(end <= data.length);
    const type = data.subarray(at + 4, at + 8).toString('latin1');
    if (!PNG_METADATA.has(type)) parts.push(data.subarray(at, end));
    // eXIf must come before the image data; right after the header is always before it.
    if (type === 'IHDR' && needsOrientation(orientation)) parts.push(pngChunk('eXIf', orientationExif(orientation)));
    at = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(parts);
}

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/** WebP: only the extended form (VP8X) can hold EXIF and XMP chunks; a simple file has none. */
function stripWebp(data: Buffer, orientation: number): Buffer {
  check(data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP');
  if (data.toString('latin1', 12, 16) !== 'VP8X') return data;
  const chunks: Buffer[] = [];
  let at = 12;
  while (at + 8 <= data.length) {
    const size = data.readUInt32LE(at + 4);
    const end = at + 8 + size + (size % 2);
    check(end <= data.length);
    const type = data.toString('latin1', at, at + 4);
    if (type !== 'EXIF' && type !== 'XMP ') chunks.push(Buffer.from(data.subarray(at, end)));
    at = end;
  }
  const vp8x = chunks[0] as Buffer;
  let flags = (vp8x[8] as number) & ~(VP8X_EXIF | VP8X_XMP);
  if (needsOrientation(orientation)) {
    const exif = orientationExif(orientation);
    const header = Buffer.alloc(8);
    header.write('EXIF', 0, 'latin1');
    header.writeUInt32LE(exif.length, 4);
    chunks.push(header, exif);
    flags |= VP8X_EXIF;
  }
  vp8x[8] = flags;
  const body = Buffer.concat(chunks);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length + 4, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, body]);
}

/** GIF keeps its looping extension (NETSCAPE2.0 / ANIMEXTS1.0); comments and XMP go. */
function stripGif(data: Buffer): Buffer {
  check(data.toString('latin1', 0, 3) === 'GIF');
  const tableSize = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let at = 13 + tableSize(data[10] as number);
  const parts: Buffer[] = [data.subarray(0, at)];
  const skipSubBlocks = (from: number) => {
    let next = from;
    while ((data[next] as number) !== 0) {
      next += 1 + (data[next] as number);
      check(next < data.length);
    }
    return next + 1;
  };
  for (;;) {
    check(at < data.length);
    const introducer = data[at];
    if (introducer === 0x3b) {
      parts.push(data.subarray(at, at + 1));
      return Buffer.concat(parts);
    }
    let end: number;
    let keep = true;
    if (introducer === 0x21) {
      const label = data[at + 1];
      end = skipSubBlocks(at + 2);
      if (label === 0xfe) keep = false;
      if (label === 0xff) {
        const application = data.toString('latin1', at + 3, at + 14);
        keep = application === 'NETSCAPE2.0' || application === 'ANIMEXTS1.0';
      }
    } else {
      check(introducer === 0x2c);
      end = skipSubBlocks(at + 10 + tableSize(data[at + 9] as number) + 1);
    }
    if (keep) parts.push(data.subarray(at, end));
    at = end;
  }
}
