import { type Insertable, type Selectable, sql } from 'kysely';
import { compiledOnce } from '../database/compiled-query.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { SearchBuildTable } from '../database/schema.ts';
import { type ProjectBuild, readyBuildsOf } from './ready-builds.ts';

export type SearchBuildRow = Selectable<SearchBuildTable>;

/** The builds of projects' search indexes (their documents are the engines' business). */
export class SearchBuildStore {
  readonly #database: Database;
  /** Every search runs it first: compiled once (database/compiled-query.ts). */
  readonly #readyBuild;
  readonly #forProject;

  constructor(database: Database) {
    this.#database = database;
    this.#readyBuild = compiledOnce(() =>
      database.db
        .selectFrom('audit_projects as p')
        .leftJoin('search_builds as b', (join) => join.onRef('b.project_id', '=', 'p.id').on('b.state', '=', sql.lit('ready')))
        .select(['p.workspace_id', 'b.id'])
        .where('p.id', '=', '')
        .compile(),
    );
    // Read by every request for the index's state.
    this.#forProject = compiledOnce(() =>
      database.db.selectFrom('search_builds').selectAll().where('project_id', '=', '').orderBy('id', 'desc').compile(),
    );
  }

  /** The project's newest report (ids are time-ordered). */
  latestReport(projectId: string): Promise<{ id: string; crawl_id: string } | undefined> {
    return this.#database.db
      .selectFrom('reports')
      .select(['id', 'crawl_id'])
      .where('project_id', '=', projectId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** False when the project already has a build under way (the unique index on building builds). */
  async insertBuilding(row: Omit<Insertable<SearchBuildTable>, 'state'>): Promise<boolean> {
    try {
      await this.#database.db
        .insertInto('search_builds')
        .values({ ...row, state: 'building' })
        .execute();
      return true;
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) return false;
      throw error;
    }
  }

  find(buildId: string): Promise<SearchBuildRow | undefined> {
    return this.#database.db.selectFrom('search_builds').selectAll().where('id', '=', buildId).executeTakeFirst();
  }

  /** The project's builds, newest first. */
  async forProject(projectId: string): Promise<SearchBuildRow[]> {
    return (await this.#database.db.executeQuery(this.#forProject(projectId))).rows;
  }

  /**
   * The project's workspace (undefined: no such project) and its ready build (null: none), as
   * read lately (ready-builds.ts); `kept` says it came from an earlier read.
   */
  readyBuild(projectId: string): Promise<(ProjectBuild & { kept: boolean }) | undefined> {
    return readyBuildsOf(this.#database).find(projectId, this.#readProjectBuild);
  }

  /** The same, read again whatever is kept. */
  rereadReadyBuild(projectId: string): Promise<ProjectBuild | undefined> {
    return readyBuildsOf(this.#database).reread(projectId, this.#readProjectBuild);
  }

  /** Both in one query: a search asks them before anything else, and each round trip counts under load. */
  readonly #readProjectBuild = async (projectId: string): Promise<ProjectBuild | undefined> => {
    const [row] = (await this.#database.db.executeQuery(this.#readyBuild(projectId))).rows;
    return row && { workspaceId: row.workspace_id, buildId: row.id };
  };

  async readyBuildId(projectId: string): Promise<string | undefined> {
    const row = await this.#database.db
      .selectFrom('search_builds')
      .select('id')
      .where('project_id', '=', projectId)
      .where('state', '=', 'ready')
      .executeTakeFirst();
    return row?.id;
  }

  /** Counts a written batch; false when the build is no longer under way (failed or taken over). */
  async recordProgress(buildId: string, pages: number, lastPageId: string, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('search_builds')
      .set((eb) => ({ pages_indexed: eb('pages_indexed', '+', pages), resume_after: lastPageId, updated_at: at }))
      .where('id', '=', buildId)
      .where('state', '=', 'building')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Says the build is still moving (its seal); false when it is no longer under way. */
  async recordSealing(buildId: string, at: string): Promise<boolean> {
    const result = await this.#database.db
      .updateTable('search_builds')
      .set({ updated_at: at })
      .where('id', '=', buildId)
      .where('state', '=', 'building')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Makes the build the one queries read and retires the one they read until now, in one
   * transaction: a query sees either generation whole. False when the build is no longer under way.
   * This process's searches read the new one from the next on (ready-builds.ts).
   */
  async complete(buildId: string, projectId: string, at: string): Promise<boolean> {
    const completed = await inTransaction(this.#database, async ({ db }) => {
      const building = await db
        .selectFrom('search_builds')
        .select('id')
        .where('id', '=', buildId)
        .where('state', '=', 'building')
        .executeTakeFirst();
      if (!building) return false;
      await db
        .updateTable('search_builds')
        .set({ state: 'retired', updated_at: at })
        .where('project_id', '=', projectId)
        .where('state', '=', 'ready')
        .execute();
      await db.updateTable('search_builds').set({ state: 'ready', updated_at: at, finished_at: at }).where('id', '=', buildId).execute();
      return true;
    });
    if (completed) readyBuildsOf(this.#database).forget(projectId);
    return completed;
  }

  async fail(buildId: string, error: string, at: string): Promise<void> {
    await this.#database.db
      .updateTable('search_builds')
      .set({ state: 'failed', error, updated_at: at, finished_at: at })
      .where('id', '=', buildId)
      .where('state', '=', 'building')
      .execute();
  }

  /** Fails the project's build under way if it has not moved since `before` (its worker is gone). */
  async failStalled(projectId: string, before: string, at: string): Promise<void> {
    await this.#database.db
      .updateTable('search_builds')
      .set({ state: 'failed', error: 'The build stopped making progress.', updated_at: at, finished_at: at })
      .where('project_id', '=', projectId)
      .where('state', '=', 'building')
      .where('updated_at', '<', before)
      .execute();
  }

  async delete(buildId: string): Promise<void> {
    await this.#database.db.deleteFrom('search_builds').where('id', '=', buildId).execute();
  }
}
