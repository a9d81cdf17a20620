import {
  type CreateImageProject,
  type ImageProject,
  type ImageProjectWithStats,
  LoupeError,
  type Page,
  type UpdateImageProject,
} from '@loupe/contract';
import type { BlobStore } from '../blobs/blob-store.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { DiskGuard } from '../disk/disk-guard.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { newId } from '../ids.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { ImageStore } from './image-store.ts';
import { ProjectStore } from './project-store.ts';
import { projectSlug } from './slug.ts';
import { UploadSlotStore } from './upload-slot-store.ts';

/** A slug clash is a 1-in-2·10⁹ event; a few fresh suffixes settle it. */
const SLUG_ATTEMPTS = 5;

export class ProjectService {
  readonly #database: Database;
  readonly #plans: Plans;
  readonly #projects: ProjectStore;
  readonly #blobs: BlobStore;
  readonly #purgeVariants: (blobKey: string) => Promise<unknown>;
  readonly #disk: Pick<DiskGuard, 'evenWhenFull'>;

  constructor(
    database: Database,
    plans: Plans,
    blobs: BlobStore,
    purgeVariants: (blobKey: string) => Promise<unknown>,
    disk: Pick<DiskGuard, 'evenWhenFull'>,
  ) {
    this.#database = database;
    this.#plans = plans;
    this.#projects = new ProjectStore(database);
    this.#blobs = blobs;
    this.#purgeVariants = purgeVariants;
    this.#disk = disk;
  }

  list(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<ImageProject>> {
    return this.#projects.list(principal.workspaceId, page);
  }

  /** The project if it is in the caller's workspace; 404 otherwise, never revealing that it exists. */
  async get(principal: Principal, projectId: string): Promise<ImageProject> {
    const project = await this.#projects.find(principal.workspaceId, projectId);
    if (!project) throw new LoupeError('not_found', { message: 'No such image project.' });
    return project;
  }

  async getWithStats(principal: Principal, projectId: string): Promise<ImageProjectWithStats> {
    const project = await this.get(principal, projectId);
    return { ...project, stats: await this.#projects.stats(project.id) };
  }

  async create(principal: Principal, input: CreateImageProject): Promise<ImageProject> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.#database, (transaction) => this.#insert(transaction, principal, input));
      } catch (error) {
        if (!this.#database.isUniqueViolation(error) || attempt === SLUG_ATTEMPTS) throw error;
      }
    }
  }

  async #insert(transaction: Database, principal: Principal, input: CreateImageProject): Promise<ImageProject> {
    const workspaces = new WorkspaceStore(transaction);
    const projects = new ProjectStore(transaction);
    await workspaces.lockWorkspace(principal.workspaceId);
    const workspace = await workspaces.findWorkspace(principal.workspaceId);
    if (!workspace) throw new LoupeError('not_found');
    const limit = this.#plans.limits(workspace.plan).imageProjects;
    if (limit !== null) {
      const current = await projects.count(principal.workspaceId);
      if (current >= limit) {
        throw new LoupeError('plan_limit_reached', {
          message: `The ${workspace.plan} plan allows ${limit} image projects.`,
          extra: { limit, current },
        });
      }
    }
    const at = now();
    const row = {
      id: newId(),
      workspace_id: principal.workspaceId,
      name: input.name,
      slug: projectSlug(input.name),
      custom_domain: null,
      created_at: at,
      updated_at: at,
    };
    await projects.insert(row);
    return (await projects.find(principal.workspaceId, row.id)) as ImageProject;
  }

  async update(principal: Principal, projectId: string, input: UpdateImageProject): Promise<ImageProject> {
    try {
      if (!(await this.#projects.update(principal.workspaceId, projectId, input, now()))) {
        throw new LoupeError('not_found', { message: 'No such image project.' });
      }
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) throw new LoupeError('custom_domain_taken');
      throw error;
    }
    return this.get(principal, projectId);
  }

  /**
   * Deletes the project, its presets, image records and upload slots (cascade), then its
   * originals and the files staged for its slots (a PUT still arriving drops its own: see
   * UploadSlotService.receive).
   */
  async delete(principal: Principal, projectId: string): Promise<{ deleted: true }> {
    const project = await this.get(principal, projectId);
    const blobKeys = await new ImageStore(this.#database).blobKeys(project.id);
    const stagedKeys = await new UploadSlotStore(this.#database).blobKeys(project.id);
    // Deleting is how a full disk gets space back, so it must work on one (DiskGuard.evenWhenFull).
    if (!(await this.#disk.evenWhenFull(() => this.#projects.delete(principal.workspaceId, project.id)))) {
      throw new LoupeError('not_found', { message: 'No such image project.' });
    }
    await Promise.all(
      blobKeys.map(async (key) => {
        await this.#blobs.delete(key);
        await this.#purgeVariants(key);
      }),
    );
    await Promise.all(stagedKeys.map((key) => this.#blobs.delete(key)));
    return { deleted: true };
  }
}
