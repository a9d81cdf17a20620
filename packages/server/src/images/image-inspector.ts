import { LoupeError } from '@loupe/contract';
import { ImageDecodeError } from '../transform/image-decode-error.ts';
import { type ImageFacts, inspectImage } from '../transform/inspect-image.ts';

/** What an upload is found to be once decoded: the only facts about it the service trusts. */
export type InspectedImage = ImageFacts;

/** Decoding failures in the catalogue's words: not an image 415, too large 413, damaged 400. */
export function decodeFailureToError(error: ImageDecodeError): LoupeError {
  switch (error.reason) {
    case 'unsupported':
      return new LoupeError('unsupported_media_type', { message: error.message });
    case 'too_large':
      return new LoupeError('payload_too_large', { message: error.message });
    case 'corrupt':
    case 'timeout':
      return new LoupeError('invalid_image', { message: error.message });
  }
}

export async function inspectUpload(
  data: Uint8Array,
  options: { maxInputPixels: number; maxAnimationPixels: number },
): Promise<InspectedImage> {
  try {
    return await inspectImage(data, options);
  } catch (error) {
    if (error instanceof ImageDecodeError) throw decodeFailureToError(error);
    throw error;
  }
}
