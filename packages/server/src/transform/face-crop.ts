import { openRaw, type RawImage, readRaw } from './raw-image.ts';
import { coverCropAround, type Region, type Size } from './resize-plan.ts';
import type { PipelineOptions } from './transform-pipeline.ts';

/** DESIGN.md §9 measured the BlazeFace detector at 40–90 ms on 512 px images. */
const DETECTION_SIZE = 512;

/**
 * The region of `whole` to scale into `box` for face gravity, or null when the finder sees
 * no face. The finder gets a downscaled RGB copy of the already decoded pixels, so the
 * original is still decoded once; its box is mapped back to full size.
 */
export async function faceCrop(
  whole: RawImage,
  box: Size,
  findFace: NonNullable<PipelineOptions['findFace']>,
  seconds: number,
): Promise<Region | null> {
  const copy = await readRaw(
    openRaw(whole, seconds).resize(DETECTION_SIZE, DETECTION_SIZE, { fit: 'inside', withoutEnlargement: true }).removeAlpha(),
  );
  // A detector failure must not fail the delivery: `face` falls back to `auto` as with no face.
  const face = await findFace({ data: copy.data, width: copy.width, height: copy.height, channels: 3 }).catch(() => null);
  if (face === null) return null;
  const centre = {
    x: ((face.x + face.width / 2) * whole.width) / copy.width,
    y: ((face.y + face.height / 2) * whole.height) / copy.height,
  };
  return coverCropAround(whole, centre, box);
}
