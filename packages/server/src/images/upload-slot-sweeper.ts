import type { BlobStore } from '../blobs/blob-store.ts';
import type { Database } from '../database/database.ts';
import { UploadSlotStore } from './upload-slot-store.ts';

/**
 * How long past its expiry a slot is left alone: a confirm checks the expiry when it starts,
 * so one that began in time must still find its file when it records the image.
 */
export const SWEEP_GRACE_MS = 5 * 60 * 1000;
const BATCH = 200;

/**
 * Removes expired two-step upload slots and their staged files, at each tick of the scheduler
 * loop (LOUPE_SCHEDULER_TICK_MS) in every process. Files go first, then the rows: a crash in
 * between leaves a row the next tick removes again, never a file nothing points to. Concurrent
 * sweeps in several processes delete the same things twice, which is harmless.
 */
export class UploadSlotSweeper {
  readonly #slots: UploadSlotStore;
  readonly #blobs: BlobStore;

  constructor(database: Database, blobs: BlobStore) {
    this.#slots = new UploadSlotStore(database);
    this.#blobs = blobs;
  }

  async tick(at: Date): Promise<{ removed: number }> {
    const before = new Date(at.getTime() - SWEEP_GRACE_MS).toISOString();
    let removed = 0;
    for (;;) {
      const expired = await this.#slots.expired(before, BATCH);
      for (const slot of expired) await this.#blobs.delete(slot.blob_key);
      await this.#slots.deleteExpired(
        expired.map((slot) => slot.id),
        before,
      );
      removed += expired.length;
      if (expired.length < BATCH) return { removed };
    }
  }
}
