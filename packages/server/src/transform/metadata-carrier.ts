import type { Sharp } from 'sharp';
import type { RawImage } from './raw-image.ts';

/** Starts the encode from final pixels; the carrier variant also brings the original's metadata. */
export type OpenForEncode = (image: RawImage, seconds: number) => Sharp;

/**
 * For projects that keep metadata: the pipeline hands raw pixels between stages, which hold
 * none, so the encode starts from the original instead, cut to one pixel (cheap: libvips
 * decodes on demand) and stretched to the output size, with the final pixels laid over it
 * unchanged (`source`). libvips copies the EXIF, XMP and IPTC of that first image to the
 * output. The pixels were converted to sRGB at decode, so the original's ICC profile no
 * longer describes them: an sRGB profile goes in its place. EXIF orientation is reset, the
 * pixels being upright already.
 */
export function metadataCarrier(original: () => Sharp): OpenForEncode {
  return (image, seconds) =>
    original()
      .timeout({ seconds })
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .resize(image.width, image.height, { fit: 'fill', kernel: 'nearest' })
      .composite([{ input: image.data, raw: { width: image.width, height: image.height, channels: image.channels }, blend: 'source' }])
      .keepMetadata()
      .withIccProfile('srgb');
}
