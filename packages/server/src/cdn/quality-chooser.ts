import type { Database } from '../database/database.ts';
import type { LossyFormat } from '../transform/perceptual-quality.ts';

export type QualityMode = 'high' | 'medium' | 'low';
export type QualitySearch = (original: Buffer, format: LossyFormat, mode: QualityMode) => Promise<number>;

/**
 * `qualityMode` (DESIGN.md §7): the encoder quality that reaches the mode's perceptual
 * target for one original, searched once per (original, format, mode) and kept in the
 * database, so every size and crop of that image reuses it and restarts do not search again.
 */
export class QualityChooser {
  readonly #database: Database;
  readonly #search: QualitySearch;
  readonly #inFlight = new Map<string, Promise<number>>();

  constructor(database: Database, search: QualitySearch) {
    this.#database = database;
    this.#search = search;
  }

  choose(blobKey: string, format: LossyFormat, mode: QualityMode, original: () => Promise<Buffer>): Promise<number> {
    const key = `${blobKey}|${format}|${mode}`;
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#chooseOnce(blobKey, format, mode, original).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  async #chooseOnce(blobKey: string, format: LossyFormat, mode: QualityMode, original: () => Promise<Buffer>) {
    const stored = await this.#database.db
      .selectFrom('quality_choices')
      .select('quality')
      .where('blob_key', '=', blobKey)
      .where('format', '=', format)
      .where('mode', '=', mode)
      .executeTakeFirst();
    if (stored) return stored.quality;
    const quality = await this.#search(await original(), format, mode);
    // Kept to save the next search, not needed for this answer: a failed write (a full disk) never fails a delivery.
    await this.#database.db
      .insertInto('quality_choices')
      .values({ blob_key: blobKey, format, mode, quality })
      .onConflict((conflict) => conflict.columns(['blob_key', 'format', 'mode']).doNothing())
      .execute()
      .catch(() => {});
    return quality;
  }
}
