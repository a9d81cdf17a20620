/**
 * Why an input image was refused. The HTTP layer maps these to answers:
 * `unsupported` → 415, `corrupt` → 400, `too_large` → 413, `timeout` → the input is too
 * costly to process within the decode time limit (DESIGN.md §7, Safety).
 */
export type ImageDecodeFailure = 'unsupported' | 'corrupt' | 'too_large' | 'timeout';

/** An input that is not an image we can read, is cut short, is too large or too slow. */
export class ImageDecodeError extends Error {
  readonly reason: ImageDecodeFailure;

  constructor(reason: ImageDecodeFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageDecodeError';
    this.reason = reason;
  }
}

/** Whether a sharp failure is its `timeout({ seconds })` limit firing. */
export function isSharpTimeout(error: unknown): boolean {
  return error instanceof Error && /^timeout:/i.test(error.message);
}

/** The time limit ran out; `cause` is how sharp (or a stage) failed when it did. */
export function timeoutError(cause: unknown): ImageDecodeError {
  if (cause instanceof ImageDecodeError && cause.reason === 'timeout') return cause;
  return new ImageDecodeError('timeout', 'The image took too long to process.', { cause });
}

/**
 * Classifies a failure of the step that decodes the original. sharp reports failures as
 * plain `Error`s, so the message is all there is to go on; anything not recognised is
 * treated as corrupt input, since a valid image of a supported format decodes.
 */
export function toImageDecodeError(error: unknown): ImageDecodeError {
  if (error instanceof ImageDecodeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isSharpTimeout(error)) return timeoutError(error);
  if (/exceeds pixel limit/i.test(message)) {
    return new ImageDecodeError('too_large', 'The image has too many pixels.', { cause: error });
  }
  if (/unsupported image format|buffer is empty/i.test(message)) {
    return new ImageDecodeError('unsupported', 'The file is not an image in a supported format.', { cause: error });
  }
  return new ImageDecodeError('corrupt', 'The image is damaged or truncated.', { cause: error });
}
