import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LoupeError } from '@loupe/contract';
import type { Logger } from 'pino';
import { type DiskSpace, diskSpaceOf } from './disk-space.ts';
import { SpaceReserve } from './space-reserve.ts';
import { isStorageFull } from './storage-full.ts';

/** LOUPE_DISK_* (config.ts): when the data disk counts as nearly full, and the reserve kept for a full one. */
export interface DiskSettings {
  /** Nearly full below this share of the disk free… */
  minFreePercent: number;
  /** …or below these bytes, whichever is smaller (so a large disk is not "full" with 5 % of it free). */
  minFreeBytes: number;
  /** The emergency reserve file; 0 keeps none. */
  reserveBytes: number;
}

/** Space that may be taken back at any time: the variant cache. */
export interface DisposableSpace {
  /** Frees at least `bytes` if it holds that much (all it holds otherwise); resolves with the bytes freed. */
  evict(bytes: number): Promise<number>;
}

export interface DiskStatus extends DiskSpace {
  /** The free space below which the disk is nearly full. */
  minFreeBytes: number;
  nearlyFull: boolean;
}

/** The file's name in the data dir; README tells operators they may delete it by hand. */
export const RESERVE_FILE = 'space-reserve';

/**
 * Keeps the data disk from filling in a way Loupe cannot recover from by itself (issue #22):
 * - new originals (uploads, staged PUTs) are refused with 507 once they would leave the disk
 *   nearly full, after the variant cache has given its space back;
 * - the variant cache writes only into space above that mark, evicting its own entries first;
 * - when a write finds the disk full all the same (another process, the database's WAL), the
 *   cache gives way and then the reserve file is deleted, so that deletions, which free space,
 *   can still be written; the next tick makes the reserve again once there is room for it.
 * The mark: free < min(LOUPE_DISK_MIN_FREE_PERCENT of the disk, LOUPE_DISK_MIN_FREE_BYTES),
 * Elasticsearch's flood stage with its max headroom: 5 % of a small disk, 1 GiB of a large one.
 */
export class DiskGuard {
  readonly #directory: string;
  readonly #settings: DiskSettings;
  readonly #reserve: SpaceReserve;
  readonly #log: Pick<Logger, 'warn' | 'info'>;
  readonly #disposable: DisposableSpace[] = [];

  constructor(directory: string, settings: DiskSettings, log: Pick<Logger, 'warn' | 'info'>) {
    this.#directory = directory;
    this.#settings = settings;
    this.#reserve = new SpaceReserve(join(directory, RESERVE_FILE), settings.reserveBytes);
    this.#log = log;
  }

  async open(): Promise<void> {
    await mkdir(this.#directory, { recursive: true });
  }

  /** Registers space to take back before anything is refused (first registered, first evicted). */
  giveWayFirst(space: DisposableSpace): void {
    this.#disposable.push(space);
  }

  async status(): Promise<DiskStatus> {
    const space = await diskSpaceOf(this.#directory);
    const minFreeBytes = this.#minFree(space);
    return { ...space, minFreeBytes, nearlyFull: space.freeBytes < minFreeBytes };
  }

  /** The bytes that may still be written before the disk is nearly full (negative once it is). */
  async spareBytes(): Promise<number> {
    const { freeBytes, minFreeBytes } = await this.status();
    return freeBytes - minFreeBytes;
  }

  /** Makes room for `bytes` more, evicting disposable space if needed; 507 insufficient_storage when there is none. */
  async makeRoom(bytes: number): Promise<void> {
    if ((await this.#spareAfterGivingWay(bytes)) < bytes) {
      throw new LoupeError('insufficient_storage', {
        message: "The server's disk is nearly full: delete images (or ask the operator to free space), then retry.",
      });
    }
  }

  /**
   * A write found the disk full: disposable space goes first, then the reserve, so that the
   * deletions that free space can be written.
   */
  async relieve(): Promise<void> {
    if ((await this.#spareAfterGivingWay(1)) <= 0 && (await this.#reserve.release())) {
      this.#log.warn({ file: this.#reserve.path, bytes: this.#reserve.bytes }, 'the data disk is full: released the space reserve');
    }
  }

  /**
   * Runs a write that frees space (a deletion); when it finds the disk full, relieves it and
   * runs it once more: freeing space must work on a full disk.
   */
  async evenWhenFull<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      await this.relieve();
      return write();
    }
  }

  /** At each scheduler tick: disposable space gives way on a nearly full disk, and the reserve is made again once it fits. */
  async tick(): Promise<{ nearlyFull: boolean; reserved: boolean }> {
    const spare = await this.#spareAfterGivingWay(0);
    let reserved = await this.#reserve.present();
    if (!reserved && this.#reserve.bytes > 0 && spare >= this.#reserve.bytes) {
      reserved = await this.#reserve.make();
      if (reserved) this.#log.info({ file: this.#reserve.path, bytes: this.#reserve.bytes }, 'made the space reserve');
    }
    return { nearlyFull: spare < 0, reserved };
  }

  #minFree(space: DiskSpace): number {
    return Math.min(Math.floor((space.totalBytes * this.#settings.minFreePercent) / 100), this.#settings.minFreeBytes);
  }

  /** The spare bytes once disposable space has given way, as far as it holds, for `bytes` more. */
  async #spareAfterGivingWay(bytes: number): Promise<number> {
    const spare = await this.spareBytes();
    if (spare >= bytes) return spare;
    await this.#evict(bytes - spare);
    return this.spareBytes();
  }

  async #evict(bytes: number): Promise<void> {
    let wanted = bytes;
    for (const space of this.#disposable) {
      if (wanted <= 0) return;
      wanted -= await space.evict(wanted);
    }
  }
}
