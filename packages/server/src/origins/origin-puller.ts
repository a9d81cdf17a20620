import { LoupeError } from '@loupe/contract';
import { LRUCache } from 'lru-cache';
import type { Database } from '../database/database.ts';
import type { ImageService } from '../images/image-service.ts';
import { ImageStore } from '../images/image-store.ts';
import { ProjectStore } from '../images/project-store.ts';
import type { StoredOrigin } from './origin-config.ts';
import type { OriginFetcher } from './origin-fetcher.ts';

export interface OriginPullerOptions {
  database: Database;
  fetcher: Pick<OriginFetcher, 'fetch'>;
  images: Pick<ImageService, 'store'>;
  /** How long a 404 at the origin is believed (LOUPE_ORIGIN_NOT_FOUND_SECONDS); 0 asks every time. */
  notFoundSeconds: number;
  /** Milliseconds since the epoch; tests move it to end a not-found window without waiting. */
  clock?: () => number;
}

/** Paths remembered as missing at once, at most: a scan of random paths evicts the oldest, never grows memory. */
const NOT_FOUND_ENTRIES = 10_000;

/** What the origin's refusal of a file means to a CDN caller: the origin's fault, not theirs. */
const STORE_FAILURES = new Set(['invalid_image', 'unsupported_media_type', 'payload_too_large']);

/**
 * Brings an image the project does not hold yet from its origin (issue #26, point 2): fetched
 * once however many requests ask at the same time, stored as an upload would be (ImageService
 * .store: limits, quota, probe, blurhash), and a 404 at the origin remembered for a while.
 */
export class OriginPuller {
  readonly #options: OriginPullerOptions;
  readonly #projects: ProjectStore;
  readonly #images: ImageStore;
  readonly #inFlight = new Map<string, Promise<boolean>>();
  /** project id + path → when the origin's 404 stops being believed (ms). */
  readonly #notFound = new LRUCache<string, number>({ max: NOT_FOUND_ENTRIES });
  readonly #clock: () => number;

  constructor(options: OriginPullerOptions) {
    this.#options = options;
    this.#projects = new ProjectStore(options.database);
    this.#images = new ImageStore(options.database);
    this.#clock = options.clock ?? Date.now;
  }

  /** True once the image is stored at `path` (by this call or a concurrent one); false when the origin has none. */
  pull(project: { id: string; workspaceId: string }, origin: StoredOrigin, path: string): Promise<boolean> {
    const key = `${project.id}\n${path}`;
    const until = this.#notFound.get(key);
    if (until !== undefined && until > this.#clock()) return Promise.resolve(false);
    let pulling = this.#inFlight.get(key);
    if (!pulling) {
      pulling = this.#pull(project, origin, path, key).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pulling);
    }
    return pulling;
  }

  /** Forgets the project's remembered 404s: its origin changed. */
  forget(projectId: string): void {
    for (const key of this.#notFound.keys()) if (key.startsWith(`${projectId}\n`)) this.#notFound.delete(key);
  }

  async #pull(project: { id: string; workspaceId: string }, origin: StoredOrigin, path: string, key: string): Promise<boolean> {
    // A request that found no image just before another pull stored it starts its own pull
    // once that one has ended: the image is there now, and the origin is not asked again.
    if ((await this.#images.findByPath(project.id, path)) !== undefined) return true;
    const answer = await this.#options.fetcher.fetch(origin, path);
    if (!answer.found) {
      if (this.#options.notFoundSeconds > 0) this.#notFound.set(key, this.#clock() + this.#options.notFoundSeconds * 1000);
      return false;
    }
    const current = await this.#projects.find(project.workspaceId, project.id);
    if (!current) return false;
    try {
      await this.#options.images.store(current, { path, data: answer.data, filename: path.split('/').at(-1) as string, ifAbsent: true });
    } catch (error) {
      if (error instanceof LoupeError && STORE_FAILURES.has(error.code)) {
        throw new LoupeError('origin_failed', { message: `The origin's file at this path cannot be stored: ${error.message}` });
      }
      throw error;
    }
    return true;
  }
}
