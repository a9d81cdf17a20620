import { randomBytes } from 'node:crypto';
import { type ConfirmUpload, type CreateUpload, type ErrorCode, type Image, LoupeError, type PendingUpload } from '@loupe/contract';
import type { BlobStore } from '../blobs/blob-store.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { hashKeySecret } from '../identity/key-secret.ts';
import { newId } from '../ids.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { checkImageLimit } from './image-limit.ts';
import type { ImageService } from './image-service.ts';
import { ImageStore } from './image-store.ts';
import type { ProjectService } from './project-service.ts';
import { type UploadSlot, UploadSlotStore } from './upload-slot-store.ts';

/** How long an upload URL accepts its PUT. */
const SLOT_LIFETIME_MS = 60 * 60 * 1000;

const slotNotFound = () => new LoupeError('not_found', { message: 'No such upload, or it has expired.' });
const slotExpired = () => new LoupeError('upload_expired');

/** Confirm answers that mean the staged file is not a storable image: it goes with its slot. */
const UNUSABLE_FILE = new Set<ErrorCode>(['unsupported_media_type', 'payload_too_large', 'invalid_image']);

/**
 * The two-step upload of the hosted reference (DESIGN.md §7): `upload` hands out a secret
 * URL, the client PUTs the bytes there without an API key (as to a presigned URL), and
 * `upload/confirm` decodes them and records the image. A live slot holds a place in the
 * project's image count; an expired one answers 410 and is swept with its file
 * (UploadSlotSweeper).
 */
export class UploadSlotService {
  readonly #database: Database;
  readonly #slots: UploadSlotStore;
  readonly #projects: ProjectService;
  readonly #images: ImageService;
  readonly #blobs: BlobStore;
  readonly #plans: Plans;
  readonly #publicUrl: string;

  constructor(options: {
    database: Database;
    projects: ProjectService;
    images: ImageService;
    blobs: BlobStore;
    plans: Plans;
    publicUrl: string;
  }) {
    this.#database = options.database;
    this.#slots = new UploadSlotStore(options.database);
    this.#projects = options.projects;
    this.#images = options.images;
    this.#blobs = options.blobs;
    this.#plans = options.plans;
    this.#publicUrl = options.publicUrl;
  }

  async create(principal: Principal, projectId: string, input: CreateUpload): Promise<PendingUpload> {
    const project = await this.#projects.get(principal, projectId);
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const id = newId();
    const expiresAt = new Date(Date.parse(at) + SLOT_LIFETIME_MS).toISOString();
    await inTransaction(this.#database, async (transaction) => {
      const images = new ImageStore(transaction);
      await images.lockProject(project.id);
      // A slot for a path that holds an image replaces it, as a direct upload would: no new place.
      if (!(await images.findByPath(project.id, input.path))) await checkImageLimit(transaction, this.#plans, project, at);
      await new UploadSlotStore(transaction).insert({
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
    });
    return { imageId: id, uploadUrl: `${this.#publicUrl}/api/images/uploads/${token}`, expiresAt };
  }

  /** Refuses a PUT from its URL alone, before its body is read: 404 for a token of no slot, 410 for an expired one. */
  async checkLive(token: string): Promise<void> {
    await this.#liveSlot(token);
  }

  /** The PUT: stores the bytes for a live slot (checked again: it may have expired while the body came). A second PUT replaces the first. */
  async receive(token: string, data: Buffer, contentType: string): Promise<{ received: number }> {
    const slot = await this.#liveSlot(token);
    await this.#blobs.put(slot.blob_key, data, contentType);
    if (!(await this.#slots.markReceived(slot.id, data.length, now()))) {
      // The slot expired (or went with its project) while the body arrived: its bytes are nobody's.
      await this.#blobs.delete(slot.blob_key);
      throw slotExpired();
    }
    return { received: data.length };
  }

  async confirm(principal: Principal, projectId: string, input: ConfirmUpload): Promise<Image> {
    const project = await this.#projects.get(principal, projectId);
    const slot = await this.#slots.byId(project.id, input.imageId);
    if (!slot) throw slotNotFound();
    if (slot.expires_at <= now()) {
      await this.#discard(slot);
      throw slotExpired();
    }
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
        staged: {
          blobKey: slot.blob_key,
          // A second confirm of the same slot finds it taken, and must leave the file to the first.
          claim: async (transaction) => {
            if (!(await new UploadSlotStore(transaction).delete(slot.id))) throw slotNotFound();
          },
        },
      });
      return this.#images.get(principal, projectId, stored.id);
    } catch (error) {
      // A file that does not decode is dropped with its slot: nothing of it stays stored.
      if (error instanceof LoupeError && UNUSABLE_FILE.has(error.code)) await this.#discard(slot);
      throw error;
    }
  }

  /** The slot an upload URL's secret names: 404 when there is none, 410 upload_expired once it has expired. */
  async #liveSlot(token: string): Promise<UploadSlot> {
    const slot = await this.#slots.byTokenHash(hashKeySecret(token));
    if (!slot) throw slotNotFound();
    if (slot.expires_at <= now()) throw slotExpired();
    return slot;
  }

  /** The file first: a slot row left by a crash in between is swept again, a file without one never would be. */
  async #discard(slot: UploadSlot): Promise<void> {
    await this.#blobs.delete(slot.blob_key);
    await this.#slots.delete(slot.id);
  }
}
