import {
  type Image,
  ImagePath,
  type ImageProject,
  LoupeError,
  type Page,
  parseOrThrow,
  type UpdateImage,
  type UploadedFile,
  type VariantsPurged,
} from '@loupe/contract';
import type { BlobStore } from '../blobs/blob-store.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { DiskGuard } from '../disk/disk-guard.ts';
import { newId } from '../ids.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import type { ImageImporter } from './image-importer.ts';
import type { InspectedImage } from './image-inspector.ts';
import { checkImageLimit } from './image-limit.ts';
import { type ImageFilter, type ImageRow, ImageStore } from './image-store.ts';
import type { ProjectService } from './project-service.ts';

/**
 * An original already in the blob store (the two-step upload's PUT): `claim` ends its slot in
 * the transaction that records the image, and throws when the slot is gone.
 */
export interface StagedOriginal {
  blobKey: string;
  claim: (transaction: Database) => Promise<void>;
}

export type ImageSource = { kind: 'file'; file: UploadedFile; path?: string } | { kind: 'url'; url: string; path?: string };

export interface ImageServiceDependencies {
  database: Database;
  projects: ProjectService;
  blobs: BlobStore;
  /** Deletions run even when the disk is full: they are how space comes back. */
  disk: Pick<DiskGuard, 'evenWhenFull'>;
  plans: Plans;
  importer: ImageImporter;
  inspect: (data: Uint8Array) => Promise<InspectedImage>;
  /** Called once an original is deleted or replaced, to drop its cached variants at once. */
  purgeVariants: (blobKey: string) => Promise<{ variants: number; bytes: number }>;
  /** The origin of CDN URLs (LOUPE_PUBLIC_URL). */
  publicUrl: string;
}

const imageNotFound = () => new LoupeError('not_found', { message: 'No such image in this project.' });

/** Encodes each segment of an image path for a URL, keeping the slashes. */
export function encodeImagePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export class ImageService {
  readonly #dependencies: ImageServiceDependencies;
  readonly #images: ImageStore;

  constructor(dependencies: ImageServiceDependencies) {
    this.#dependencies = dependencies;
    this.#images = new ImageStore(dependencies.database);
  }

  #toImage(row: ImageRow, project: ImageProject): Image {
    return {
      id: row.id,
      path: row.path,
      filename: row.filename,
      contentType: row.content_type,
      fileSize: Number(row.file_size),
      width: row.width,
      height: row.height,
      format: row.format,
      blurhash: row.blurhash,
      altText: row.alt_text,
      tags: JSON.parse(row.tags) as string[],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      url: `${this.#dependencies.publicUrl}/cdn/${project.slug}/${encodeImagePath(row.path)}`,
    };
  }

  async list(principal: Principal, projectId: string, filter: ImageFilter, page: { limit: number; cursor?: string }): Promise<Page<Image>> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    const rows = await this.#images.list(project.id, filter, page);
    return { items: rows.items.map((row) => this.#toImage(row, project)), nextCursor: rows.nextCursor };
  }

  async get(principal: Principal, projectId: string, imageId: string): Promise<Image> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    const row = await this.#images.find(project.id, imageId);
    if (!row) throw imageNotFound();
    return this.#toImage(row, project);
  }

  async update(principal: Principal, projectId: string, imageId: string, input: UpdateImage): Promise<Image> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    const updated = await inTransaction(this.#dependencies.database, (transaction) =>
      new ImageStore(transaction).updateDetails(project.id, imageId, input, now()),
    );
    if (!updated) throw imageNotFound();
    return this.get(principal, projectId, imageId);
  }

  async delete(principal: Principal, projectId: string, imageId: string): Promise<{ deleted: true }> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    const row = await this.#images.find(project.id, imageId);
    if (!row || !(await this.#dependencies.disk.evenWhenFull(() => this.#images.delete(project.id, imageId)))) throw imageNotFound();
    await this.#forget(row.blob_key);
    return { deleted: true };
  }

  /** Drops the image's cached variants, so that the next CDN request reads its original again. */
  async purgeVariants(principal: Principal, projectId: string, imageId: string): Promise<VariantsPurged> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    const row = await this.#images.find(project.id, imageId);
    if (!row) throw imageNotFound();
    return this.#purge([row.blob_key]);
  }

  /** Drops the cached variants of every image of the project. */
  async purgeProjectVariants(principal: Principal, projectId: string): Promise<VariantsPurged> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    return this.#purge(await this.#images.blobKeys(project.id));
  }

  async #purge(blobKeys: string[]): Promise<VariantsPurged> {
    const results = await Promise.all(blobKeys.map((key) => this.#dependencies.purgeVariants(key)));
    return {
      purged: results.reduce((total, result) => total + result.variants, 0),
      bytesFreed: results.reduce((total, result) => total + result.bytes, 0),
    };
  }

  /**
   * Stores an image at a path: decoded and measured first (a file that is not an image, or
   * is truncated, stores nothing), then the original in the blob store, then the record.
   * An existing path is replaced in place, its old original deleted after the commit.
   */
  async upload(principal: Principal, projectId: string, source: ImageSource): Promise<Image> {
    const project = await this.#dependencies.projects.get(principal, projectId);
    const { data, filename } =
      source.kind === 'file'
        ? { data: source.file.data, filename: source.file.filename }
        : await this.#dependencies.importer.fetch(source.url);
    const path = parseOrThrow(ImagePath, source.path ?? filename, 'path');
    const stored = await this.store(project, { path, data, filename });
    return this.get(principal, projectId, stored.id);
  }

  /**
   * Records `data` as the image at `path`: decoded first (nothing is stored when that fails),
   * then the original is written (unless it is already staged), then the record, in place of
   * an image already at that path. A staged original's `claim` runs in the record's
   * transaction, so the record and the end of its upload slot commit together or not at all.
   */
  async store(
    project: ImageProject,
    file: { path: string; data: Uint8Array; filename: string; id?: string; staged?: StagedOriginal },
  ): Promise<{ id: string }> {
    const { path, data, filename, staged } = file;
    const inspected = await this.#dependencies.inspect(data);
    const blobKey = staged?.blobKey ?? `originals/${project.id}/${newId()}`;
    if (!staged) await this.#dependencies.blobs.put(blobKey, data, inspected.contentType);
    let stored: { id: string; replacedBlobKey?: string };
    try {
      stored = await inTransaction(this.#dependencies.database, async (transaction) => {
        const images = new ImageStore(transaction);
        await images.lockProject(project.id);
        await staged?.claim(transaction);
        return this.#record(transaction, project, path, file.id ?? newId(), {
          blob_key: blobKey,
          filename,
          content_type: inspected.contentType,
          file_size: data.byteLength,
          width: inspected.width,
          height: inspected.height,
          format: inspected.format,
          has_alpha: inspected.hasAlpha ? 1 : 0,
          frames: inspected.frames,
          blurhash: inspected.blurhash,
          updated_at: now(),
        });
      });
    } catch (error) {
      // A staged original stays its slot's until the slot ends (confirm or the sweep).
      if (!staged) await this.#dependencies.blobs.delete(blobKey);
      throw error;
    }
    if (stored.replacedBlobKey) await this.#forget(stored.replacedBlobKey);
    return { id: stored.id };
  }

  async #forget(blobKey: string): Promise<void> {
    await this.#dependencies.blobs.delete(blobKey);
    await this.#dependencies.purgeVariants(blobKey);
  }

  /** Call with the project locked (ImageStore.lockProject). */
  async #record(
    transaction: Database,
    project: ImageProject,
    path: string,
    id: string,
    file: Parameters<ImageStore['replaceFile']>[1],
  ): Promise<{ id: string; replacedBlobKey?: string }> {
    const images = new ImageStore(transaction);
    const existing = await images.findByPath(project.id, path);
    if (existing) {
      await images.replaceFile(existing.id, file);
      return { id: existing.id, replacedBlobKey: existing.blob_key };
    }
    await checkImageLimit(transaction, this.#dependencies.plans, project, file.updated_at);
    await images.insert({
      ...file,
      id,
      project_id: project.id,
      path,
      alt_text: null,
      tags: '[]',
      created_at: file.updated_at,
    });
    return { id };
  }
}
