import type { Preset, Transforms } from '@loupe/contract';
import { compiledOnce } from '../database/compiled-query.ts';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { PresetTable } from '../database/schema.ts';

function toPreset(row: PresetTable): Preset {
  return {
    id: row.id,
    name: row.name,
    transforms: JSON.parse(row.transforms) as Transforms,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Presets of one project; callers have checked that the project is the caller's. */
export class PresetStore {
  readonly #database: Database;
  readonly #firstPage;
  readonly #nextPage;

  constructor(database: Database) {
    this.#database = database;
    // Listing presets is the hot read of the image API (bench/presets.ts): compiled once per form.
    const page = () => database.db.selectFrom('presets').selectAll().where('project_id', '=', '');
    this.#firstPage = compiledOnce(() => page().orderBy('id').limit(1).compile());
    this.#nextPage = compiledOnce(() => page().where('id', '>', '').orderBy('id').limit(1).compile());
  }

  async list(projectId: string, page: { limit: number; cursor?: string }) {
    const after = decodeCursor(page.cursor);
    const query = after === undefined ? this.#firstPage(projectId, page.limit + 1) : this.#nextPage(projectId, after, page.limit + 1);
    const { rows } = await this.#database.db.executeQuery(query);
    return pageFromRows(rows, page.limit, toPreset);
  }

  async find(projectId: string, id: string): Promise<Preset | undefined> {
    const row = await this.#database.db
      .selectFrom('presets')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toPreset(row);
  }

  async findByName(projectId: string, name: string): Promise<Preset | undefined> {
    const row = await this.#database.db
      .selectFrom('presets')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && toPreset(row);
  }

  async insert(projectId: string, preset: Preset): Promise<void> {
    await this.#database.db
      .insertInto('presets')
      .values({
        id: preset.id,
        project_id: projectId,
        name: preset.name,
        transforms: JSON.stringify(preset.transforms),
        created_at: preset.createdAt,
        updated_at: preset.updatedAt,
      })
      .execute();
  }

  /** Applies the changes; false when the project has no such preset. */
  async update(projectId: string, id: string, changes: { name?: string; transforms?: Transforms }, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('presets')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.transforms !== undefined ? { transforms: JSON.stringify(changes.transforms) } : {}),
        updated_at: at,
      })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    const result = await this.#database.db
      .deleteFrom('presets')
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
