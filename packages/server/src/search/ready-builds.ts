import type { Database } from '../database/database.ts';
import { RecentReads } from '../database/recent-reads.ts';

/**
 * How long a project's ready build, read for one search, serves the next ones. Every search
 * asks it before anything else, a round trip of its own on PostgreSQL and the only one of a
 * kept answer. A build switched or a project deleted by this process is seen at once
 * (SearchBuildStore.complete and AuditProjectService.delete forget the project); by another
 * server process (several share a PostgreSQL database) within this long, as API keys are
 * (identity/key-cache.ts).
 */
export const READY_BUILD_CACHE_MS = 2_000;

/** A project as search reads it first: its workspace, and the build its queries read (null: none yet). */
export interface ProjectBuild {
  workspaceId: string;
  buildId: string | null;
}

/** Reads a project's build; undefined when there is no such project. */
export type ReadProjectBuild = (projectId: string) => Promise<ProjectBuild | undefined>;

/** The projects' ready builds read lately, by project (database/recent-reads.ts). */
export class ReadyBuilds {
  readonly #kept: RecentReads<string, ProjectBuild>;

  /** `clock` in milliseconds: tests move it. */
  constructor(clock: { now(): number } = performance) {
    this.#kept = new RecentReads({ max: 10_000, ttl: READY_BUILD_CACHE_MS, clock });
  }

  /** The project's build, kept or read; `kept` says it came from an earlier read. */
  async find(projectId: string, read: ReadProjectBuild): Promise<(ProjectBuild & { kept: boolean }) | undefined> {
    const found = await this.#kept.find(projectId, read);
    return found && { ...found.row, kept: found.kept };
  }

  /** Reads the project again whatever is kept, and keeps what it reads. */
  async reread(projectId: string, read: ReadProjectBuild): Promise<ProjectBuild | undefined> {
    this.#kept.forget(projectId);
    return (await this.#kept.find(projectId, read))?.row;
  }

  /** The project's ready build changed (a build completed), or the project went. */
  forget(projectId: string): void {
    this.#kept.forget(projectId);
  }
}

const ofDatabase = new WeakMap<Database, ReadyBuilds>();

/**
 * The process's ready builds of a database: the searches and the builds that complete (the job
 * handlers) hold their own stores of it, and share this.
 */
export function readyBuildsOf(database: Database): ReadyBuilds {
  let builds = ofDatabase.get(database);
  if (!builds) ofDatabase.set(database, (builds = new ReadyBuilds()));
  return builds;
}
