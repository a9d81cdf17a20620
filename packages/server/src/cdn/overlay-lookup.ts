import { LoupeError, type TransformName, type Transforms, transformShortNames } from '@loupe/contract';
import type { DeliveryImage, DeliveryStore } from './delivery-store.ts';

const OVERLAY_SETTINGS = [
  'overlayGravity',
  'overlayX',
  'overlayY',
  'overlayScale',
  'overlayOpacity',
  'overlayTile',
  'overlaySpacing',
] as const satisfies readonly TransformName[];

function invalid(field: string, message: string): LoupeError {
  return new LoupeError('validation_failed', { message, details: { fieldErrors: { [field]: [message] }, formErrors: [] } });
}

/**
 * The image a variant's `overlay` names, looked up in the request's own project only: a
 * path of another project reads exactly as a missing one. Missing is 400, not 404, which
 * would say the requested image itself is gone. The settings without an overlay are
 * refused, as they would only split the cache between variants that look the same.
 *
 * `params` is the query as sent, so the error names the parameter the caller used.
 */
export async function findOverlay(
  store: DeliveryStore,
  projectId: string,
  transforms: Partial<Transforms>,
  params: Record<string, string>,
): Promise<DeliveryImage | undefined> {
  const path = transforms.overlay;
  if (path === undefined) {
    const stray = OVERLAY_SETTINGS.find((field) => transforms[field] !== undefined);
    if (stray) throw invalid(stray, `${stray} needs an overlay: set overlay to an image path of this project.`);
    return undefined;
  }
  const overlay = await store.image(projectId, path);
  if (!overlay) {
    const field =
      transformShortNames.overlay !== undefined && Object.hasOwn(params, transformShortNames.overlay)
        ? transformShortNames.overlay
        : 'overlay';
    throw invalid(field, `No image at "${path}" in this project to use as overlay.`);
  }
  return overlay;
}
