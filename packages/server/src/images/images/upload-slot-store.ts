import type { Selectable } from 'kysely';
import type { Database } from '../../database/database.ts';
import type { PendingUploadTable } from '../../database/schema.ts';

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

  async markReceived(id: string, bytes: number): Promise<void> {
    await this.#database.db.updateTable('pending_uploads').set({ received_bytes: bytes }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.#database.db.deleteFrom('pending_uploads').where('id', '=', id).execute();
  }
}
