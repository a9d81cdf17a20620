import sharp from 'sharp';

/** GPS and copyright fields written into test photos with sharp's `withExif` (libvips names IFD3 GPS). */
export const GPS_EXIF = {
  IFD0: { Copyright: 'Test Photographer' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
};

export const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Test Photographer"/></rdf:RDF></x:xmpmeta>';

const GPS_IFD_POINTER = 0x8825;
const GPS_LATITUDE = 0x0002;

/**
 * The tag numbers of IFD0 and of the GPS IFD in an EXIF block (sharp's `metadata().exif`,
 * which starts `Exif\0\0`): enough to tell whether a position survived.
 */
export function exifTags(exif: Buffer | undefined): { ifd0: number[]; gps: number[] } {
  if (!exif) return { ifd0: [], gps: [] };
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => ({ tag: u16(ifd + 2 + i * 12), value: u32(ifd + 2 + i * 12 + 8) }));
  const ifd0 = entries(u32(4));
  const pointer = ifd0.find((entry) => entry.tag === GPS_IFD_POINTER);
  return { ifd0: ifd0.map((entry) => entry.tag), gps: pointer ? entries(pointer.value).map((entry) => entry.tag) : [] };
}

/** What of a test photo's metadata an image still holds. */
export async function metadataOf(image: Buffer) {
  const header = await sharp(image).metadata();
  const tags = exifTags(header.exif);
  return {
    gps: tags.gps.includes(GPS_LATITUDE),
    exif: header.exif !== undefined,
    xmp: header.xmp?.toString('utf8').includes('Test Photographer') ?? false,
    icc: header.icc !== undefined,
    orientation: header.orientation,
  };
}

/** A real photo with a GPS position, a copyright, XMP and (by default) an EXIF orientation of 1. */
export function photoWithGps(photo: Buffer, format: 'jpeg' | 'png' | 'webp' | 'avif' = 'jpeg'): Promise<Buffer> {
  return sharp(photo).withExif(GPS_EXIF).withXmp(XMP).toFormat(format).toBuffer();
}
