import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { ImageTable } from '../database/schema.ts';

export type ImageRow = Selectable<ImageTable>;

export interface ImageFilter {
  prefix?: string;
  tag?: string;
}

/** Image records of one project; callers have checked that the project is the caller's. */
export class ImageStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async list(projectId: string, filter: ImageFilter, page: { limit: number; cursor?: string }) {
    const after = decodeCursor(page.cursor);
    const { prefix, tag } = filter;
    const rows = await this.#database.db
      .selectFrom('images')
      .selectAll()
      .where('project_id', '=', projectId)
      // substr, not LIKE: LIKE is case-insensitive on SQLite and would need escaping of % and _.
      .$if(prefix !== undefined, (q) =>
        q.where((eb) => eb(eb.fn('substr', ['path', eb.lit(1), eb.val((prefix as string).length)]), '=', prefix as string)),
      )
      .$if(tag !== undefined, (q) =>
        q.where('id', 'in', (eb) =>
          eb
            .selectFrom('image_tags')
            .select('image_id')
            .where('project_id', '=', projectId)
            .where('tag', '=', tag as string),
        ),
      )
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, (row) => row);
  }

  find(projectId: string, id: string): Promise<ImageRow | undefined> {
    return this.#database.db.selectFrom('images').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  }

  findByPath(projectId: string, path: string): Promise<ImageRow | undefined> {
    return this.#database.db
      .selectFrom('images')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('path', '=', path)
      .executeTakeFirst();
  }

  async count(projectId: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: Insertable<ImageTable> & { tags: string }): Promise<void> {
    await this.#database.db.insertInto('images').values(row).execute();
    await this.#replaceTags(row.project_id, row.id, JSON.parse(row.tags) as string[]);
  }

  /** Replaces the stored file of an image, keeping its id, alt text and tags. */
  async replaceFile(
    id: string,
    file: Pick<
      ImageRow,
      | 'blob_key'
      | 'filename'
      | 'content_type'
      | 'file_size'
      | 'width'
      | 'height'
      | 'format'
      | 'has_alpha'
      | 'frames'
      | 'blurhash'
      | 'updated_at'
    >,
  ): Promise<void> {
    await this.#database.db.updateTable('images').set(file).where('id', '=', id).execute();
  }

  async updateDetails(projectId: string, id: string, changes: { altText?: string | null; tags?: string[] }, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('images')
      .set({
        ...(changes.altText !== undefined ? { alt_text: changes.altText } : {}),
        ...(changes.tags !== undefined ? { tags: JSON.stringify(changes.tags) } : {}),
        updated_at: at,
      })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    if (changes.tags !== undefined) await this.#replaceTags(projectId, id, changes.tags);
    return true;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    const result = await this.#database.db.deleteFrom('images').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Blob keys of every image of a project (to delete the originals with the project). */
  async blobKeys(projectId: string): Promise<string[]> {
    const rows = await this.#database.db.selectFrom('images').select('blob_key').where('project_id', '=', projectId).execute();
    return rows.map((row) => row.blob_key);
  }

  /** Serialises writers of one project (see WorkspaceStore.lockWorkspace). */
  async lockProject(projectId: string): Promise<void> {
    await this.#database.db
      .updateTable('image_projects')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', projectId)
      .execute();
  }

  async #replaceTags(projectId: string, imageId: string, tags: string[]): Promise<void> {
    await this.#database.db.deleteFrom('image_tags').where('image_id', '=', imageId).execute();
    if (tags.length === 0) return;
    await this.#database.db
      .insertInto('image_tags')
      .values(tags.map((tag) => ({ image_id: imageId, project_id: projectId, tag })))
      .execute();
  }
}
