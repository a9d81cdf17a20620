import type { Selectable } from 'kysely';
import type { Database } from '../database/database.ts';
import type { PendingUploadTable } from '../database/schema.ts';

export type UploadSlot = Selectable<PendingUploadTable>;

/** Slots of the two-step upload, found by their id (with the project) or by their URL's secret. */
export class UploadSlotStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async insert(slot: UploadSlot): Promise<void> {
    await this.#database.db.insertInto('pending_uploads').values(slot).execute();
  }

  byTokenHash(tokenHash: string): Promise<UploadSlot | undefined> {
    return this.#database.db.selectFrom('pending_uploads').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  byId(projectId: string, id: string): Promise<UploadSlot | undefined> {
    return this.#database.db
      .selectFrom('pending_uploads')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Records a PUT, if the slot is still there and live at `at`; false otherwise (its bytes are then nobody's). */
  async markReceived(id: string, bytes: number, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('pending_uploads')
      .set({ received_bytes: bytes })
      .where('id', '=', id)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the slot; false when it was gone already (swept, or taken by another confirm). */
  async delete(id: string): Promise<boolean> {
    const result = await this.#database.db.deleteFrom('pending_uploads').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The places live slots hold in a project's image count: their distinct paths where no image
   * is yet (a slot for an existing path replaces that image, as a direct upload does).
   */
  async heldPlaces(projectId: string, at: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('pending_uploads')
      .select((eb) => eb.fn.count<number>('path').distinct().as('n'))
      .where('project_id', '=', projectId)
      .where('expires_at', '>', at)
      .where('path', 'not in', (eb) => eb.selectFrom('images').select('path').where('project_id', '=', projectId))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Slots whose expiry is before `before`, oldest first. */
  expired(before: string, limit: number): Promise<Pick<UploadSlot, 'id' | 'blob_key'>[]> {
    return this.#database.db
      .selectFrom('pending_uploads')
      .select(['id', 'blob_key'])
      .where('expires_at', '<', before)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  async deleteExpired(ids: string[], before: string): Promise<void> {
    if (ids.length === 0) return;
    await this.#database.db.deleteFrom('pending_uploads').where('id', 'in', ids).where('expires_at', '<', before).execute();
  }

  /** Where the staged files of a project's slots are (to delete them with the project). */
  async blobKeys(projectId: string): Promise<string[]> {
    const rows = await this.#database.db.selectFrom('pending_uploads').select('blob_key').where('project_id', '=', projectId).execute();
    return rows.map((row) => row.blob_key);
  }
}
