import { type ImageProject, LoupeError } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import type { Plans } from '../plans/plans.ts';
import { ImageStore } from './image-store.ts';
import { UploadSlotStore } from './upload-slot-store.ts';

/**
 * Refuses a new image (a new path) once the project holds its plan's images per project
 * (DESIGN.md §6), counting the places live two-step upload slots hold: the plans have no
 * byte quota, so this count is what bounds staged uploads as it bounds stored ones. Call it
 * in a transaction that holds the project's lock (ImageStore.lockProject).
 */
export async function checkImageLimit(transaction: Database, plans: Plans, project: ImageProject, at: string): Promise<void> {
  const limit = plans.limits(project.plan).imagesPerProject;
  if (limit === null) return;
  const current =
    (await new ImageStore(transaction).count(project.id)) + (await new UploadSlotStore(transaction).heldPlaces(project.id, at));
  if (current >= limit) {
    throw new LoupeError('plan_limit_reached', {
      message: `The ${project.plan} plan allows ${limit} images per project (upload slots not yet confirmed count too).`,
      extra: { limit, current },
    });
  }
}
