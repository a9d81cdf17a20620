import sharp from 'sharp';
import { stripMetadata } from '../transform/strip-metadata.ts';

/**
 * The original as served when nothing is asked of it and the project does not keep metadata:
 * JPEG, PNG, WebP and GIF lose EXIF (GPS included), XMP, IPTC and comments byte for byte,
 * without re-encoding. Formats whose containers are not edited here (AVIF, HEIF, TIFF) are
 * re-encoded (`reencode`, the pipeline with no transforms) only when they hold metadata; SVG,
 * already sanitized text, is served as stored.
 */
export async function privateOriginal(
  stored: { data: Buffer; contentType: string; format: string },
  reencode: () => Promise<{ data: Buffer; contentType: string }>,
): Promise<{ data: Buffer; contentType: string }> {
  if (stored.format === 'svg') return stored;
  const header = await sharp(stored.data).metadata();
  const stripped = stripMetadata(stored.data, stored.format, header.orientation);
  if (stripped) return { data: stripped, contentType: stored.contentType };
  if (header.exif === undefined && header.xmp === undefined && header.iptc === undefined) return stored;
  return reencode();
}
