import { LoupeError, type TransformName, type Transforms, transformNames, transformShortNames } from '@loupe/contract';
import type { DeliveryImage, DeliveryStore } from './delivery-store.ts';

/** The settings of an overlay: the contract names them all `overlay…`. */
const OVERLAY_SETTINGS = transformNames.filter((name) => name.startsWith('overlay') && name !== 'overlay');

/** A 400 keyed by the name the caller used: the short one if the query has it, else the long one (as in a preset). */
function invalid(field: TransformName, params: Record<string, string>, message: string): LoupeError {
  const short = transformShortNames[field];
  const name = short !== undefined && Object.hasOwn(params, short) ? short : field;
  return new LoupeError('validation_failed', { message, details: { fieldErrors: { [name]: [message] }, formErrors: [] } });
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
    if (stray) throw invalid(stray, params, `${stray} needs an overlay: set overlay to an image path of this project.`);
    return undefined;
  }
  const overlay = await store.image(projectId, path);
  if (!overlay) throw invalid('overlay', params, `No image at "${path}" in this project to use as overlay.`);
  return overlay;
}
