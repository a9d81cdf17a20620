import { randomBytes } from 'node:crypto';
import { LoupeError, type ConfirmUpload, type CreateUpload, type Image, type PendingUpload } from '@loupe/contract';
import type { BlobStore } from '../../blobs/blob-store.ts';
import { now } from '../../clock.ts';
import type { Database } from '../../database/database.ts';
import type { Principal } from '../../identity/principal.ts';
import { hashKeySecret } from '../../identity/key-secret.ts';
import { newId } from '../../ids.ts';
import type { ProjectService } from '../projects/project-service.ts';
import type { ImageService } from './image-service.ts';
import { UploadSlotStore } from './upload-slot-store.ts';

/** How long an upload URL accepts its PUT. */
const SLOT_LIFETIME_MS = 60 * 60 * 1000;

const slotNotFound = () => new LoupeError('not_found', { message: 'No such upload, or it has expired.' });

/**
 * The two-step upload of the hosted reference (DESIGN.md §7): `upload` hands out a secret
 * URL, the client PUTs the bytes there without an API key (as to a presigned URL), and
 * `upload/confirm` decodes them and records the image.
 */
export class UploadSlotService {
  readonly #slots: UploadSlotStore;
  readonly #projects: ProjectService;
  readonly #images: ImageService;
  readonly #blobs: BlobStore;
  readonly #publicUrl: string;

  constructor(options: { database: Database; projects: ProjectService; images: ImageService; blobs: BlobStore; publicUrl: string }) {
    this.#slots = new UploadSlotStore(options.database);
    this.#projects = options.projects;
    this.#images = options.images;
    this.#blobs = options.blobs;
    this.#publicUrl = options.publicUrl;
  }

  async create(principal: Principal, projectId: string, input: CreateUpload): Promise<PendingUpload> {
    const project = await this.#projects.get(principal, projectId);
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const id = newId();
    const expiresAt = new Date(Date.parse(at) + SLOT_LIFETIME_MS).toISOString();
    await this.#slots.insert({
      id,
      project_id: project.id,
      path: input.path,
      token_hash: hashKeySecret(token),
      blob_key: `uploads/${project.id}/${id}`,
      received_bytes: null,
      filename: input.path.split('/').at(-1) ?? input.path,
      expires_at: expiresAt,
      created_at: at,
    });
    return { imageId: id, uploadUrl: `${this.#publicUrl}/api/images/uploads/${token}`, expiresAt };
  }

  /** The PUT: stores the bytes for a live slot. A second PUT replaces the first. */
  async receive(token: string, data: Buffer, contentType: string): Promise<{ received: number }> {
    const slot = await this.#slots.byTokenHash(hashKeySecret(token));
    if (!slot || slot.expires_at <= now()) throw slotNotFound();
    await this.#blobs.put(slot.blob_key, data, contentType);
    await this.#slots.markReceived(slot.id, data.length);
    return { received: data.length };
  }

  async confirm(principal: Principal, projectId: string, input: ConfirmUpload): Promise<Image> {
    const project = await this.#projects.get(principal, projectId);
    const slot = await this.#slots.byId(project.id, input.imageId);
    if (!slot) throw slotNotFound();
    const data = slot.received_bytes === null ? undefined : await this.#blobs.get(slot.blob_key);
    if (!data) {
      throw new LoupeError('validation_failed', {
        details: { fieldErrors: { imageId: ['Nothing has been PUT to the upload URL yet.'] }, formErrors: [] },
      });
    }
    try {
      const stored = await this.#images.store(project, {
        path: slot.path,
        data,
        filename: slot.filename,
        id: slot.id,
        stagedBlobKey: slot.blob_key,
      });
      await this.#slots.delete(slot.id);
      return this.#images.get(principal, projectId, stored.id);
    } catch (error) {
      // A file that does not decode is dropped with its slot: nothing of it stays stored.
      if (error instanceof LoupeError && error.status !== 403) {
        await this.#blobs.delete(slot.blob_key);
        await this.#slots.delete(slot.id);
      }
      throw error;
    }
  }
}
