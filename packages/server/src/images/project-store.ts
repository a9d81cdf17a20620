import { enlargements, type ImageProject, type ImageProjectWithStats } from '@loupe/contract';
import type { Insertable, Selectable } from 'kysely';
import { compiledOnce } from '../database/compiled-query.ts';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { ImageProjectTable } from '../database/schema.ts';

type ProjectRow = Selectable<ImageProjectTable>;

function toProject(row: ProjectRow, plan: string): ImageProject {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    customDomain: row.custom_domain,
    plan,
    requireSignedUrls: row.require_signed_urls === 1,
    enlarge: asEnlarge(row.enlarge),
    clientHints: row.client_hints === 1,
    keepMetadata: row.keep_metadata === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The stored `enlarge`; only the contract's values are ever written. */
export function asEnlarge(stored: string): ImageProject['enlarge'] {
  return enlargements.find((value) => value === stored) ?? 'allow';
}

export interface ProjectChanges {
  name?: string;
  customDomain?: string | null;
  enlarge?: ImageProject['enlarge'];
  clientHints?: boolean;
  keepMetadata?: boolean;
}

/** Image projects, always scoped to a workspace: another workspace's project is simply not found. */
export class ProjectStore {
  readonly #database: Database;
  readonly #find;

  constructor(database: Database) {
    this.#database = database;
    // Every project-scoped request checks its project with this, so it is compiled once.
    this.#find = compiledOnce(() =>
      this.#withPlan().where('image_projects.workspace_id', '=', '').where('image_projects.id', '=', '').compile(),
    );
  }

  #withPlan() {
    return this.#database.db
      .selectFrom('image_projects')
      .innerJoin('workspaces', 'workspaces.id', 'image_projects.workspace_id')
      .selectAll('image_projects')
      .select('workspaces.plan');
  }

  async list(workspaceId: string, page: { limit: number; cursor?: string }) {
    const after = decodeCursor(page.cursor);
    const rows = await this.#withPlan()
      .where('image_projects.workspace_id', '=', workspaceId)
      .$if(after !== undefined, (q) => q.where('image_projects.id', '>', after as string))
      .orderBy('image_projects.id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, (row) => toProject(row, row.plan));
  }

  async find(workspaceId: string, id: string): Promise<ImageProject | undefined> {
    const [row] = (await this.#database.db.executeQuery(this.#find(workspaceId, id))).rows;
    return row && toProject(row, row.plan);
  }

  async stats(projectId: string): Promise<ImageProjectWithStats['stats']> {
    const row = await this.#database.db
      .selectFrom('images')
      .select((eb) => [eb.fn.countAll<number>().as('image_count'), eb.fn.sum<number | null>('file_size').as('total_size')])
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return { imageCount: Number(row.image_count), totalSize: Number(row.total_size ?? 0) };
  }

  async count(workspaceId: string): Promise<number> {
    const row = await this.#database.db
      .selectFrom('image_projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: Insertable<ImageProjectTable>): Promise<void> {
    await this.#database.db.insertInto('image_projects').values(row).execute();
  }

  /** Applies the changes; false when the workspace has no such project. */
  async update(workspaceId: string, id: string, changes: ProjectChanges, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('image_projects')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.customDomain !== undefined ? { custom_domain: changes.customDomain } : {}),
        ...(changes.enlarge !== undefined ? { enlarge: changes.enlarge } : {}),
        ...(changes.clientHints !== undefined ? { client_hints: changes.clientHints ? 1 : 0 } : {}),
        ...(changes.keepMetadata !== undefined ? { keep_metadata: changes.keepMetadata ? 1 : 0 } : {}),
        updated_at: at,
      })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the project; its presets and image records go with it (ON DELETE CASCADE). */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.#database.db
      .deleteFrom('image_projects')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
