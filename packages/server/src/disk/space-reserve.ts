import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';

const CHUNK_BYTES = 1024 * 1024;

/**
 * A file that only takes space, deleted when the disk fills so that deletions (which SQLite
 * must write to its WAL first) still have room: CockroachDB's emergency ballast file, released
 * by the process itself. Its bytes are random, so a compressing file system (ZFS, btrfs)
 * really sets the space aside.
 */
export class SpaceReserve {
  readonly path: string;
  readonly bytes: number;

  constructor(path: string, bytes: number) {
    this.path = path;
    this.bytes = bytes;
  }

  async present(): Promise<boolean> {
    const stats = await stat(this.path).catch(() => undefined);
    return stats?.size === this.bytes;
  }

  /** Writes the file in full, or leaves nothing: false when the disk had no room for it. */
  async make(): Promise<boolean> {
    if (this.bytes === 0) return false;
    const temporary = `${this.path}.tmp`;
    try {
      const chunk = randomBytes(Math.min(CHUNK_BYTES, this.bytes));
      const handle = await open(temporary, 'w');
      try {
        for (let written = 0; written < this.bytes; written += chunk.length) {
          await handle.write(chunk, 0, Math.min(chunk.length, this.bytes - written));
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
      return true;
    } catch {
      await rm(temporary, { force: true }).catch(() => {});
      return false;
    }
  }

  /** Deletes the file; true when there was one to delete. */
  async release(): Promise<boolean> {
    const had = (await stat(this.path).catch(() => undefined)) !== undefined;
    await rm(this.path, { force: true });
    return had;
  }
}
