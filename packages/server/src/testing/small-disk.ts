import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, statfs, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A small file system of its own (tmpfs), to fill up in tests of a full disk. */
export interface SmallDisk {
  directory: string;
  freeBytes(): Promise<number>;
  /** Fills the disk with a filler file until `leaveBytes` (rounded to pages) are free. */
  fill(leaveBytes?: number): Promise<void>;
  /** Deletes the filler file. */
  unfill(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Mounts a tmpfs of `bytes`. Mounting needs root: without it this throws, so that a test of
 * a full disk fails loudly rather than skip (CI runs as root).
 */
export async function mountSmallDisk(bytes: number): Promise<SmallDisk> {
  if (process.getuid?.() !== 0) {
    throw new Error('Tests of a full disk mount a tmpfs and must run as root (they do in CI); this process is not root.');
  }
  const directory = await mkdtemp(join(tmpdir(), 'loupe-small-disk-'));
  await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', directory]);
  const filler = join(directory, 'filler');
  const freeBytes = async () => {
    const stats = await statfs(directory);
    return stats.bavail * stats.bsize;
  };
  return {
    directory,
    freeBytes,
    async fill(leaveBytes = 0) {
      const handle = await open(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 0x5a);
      try {
        for (let size = chunk.length; size >= 1; size = Math.floor(size / 4)) {
          try {
            for (;;) await handle.write(chunk, 0, size);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
        const { size } = await handle.stat();
        await truncate(filler, Math.max(0, size - leaveBytes));
      } finally {
        await handle.close();
      }
    },
    async unfill() {
      await rm(filler, { force: true });
    },
    async close() {
      await run('umount', [directory]);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
