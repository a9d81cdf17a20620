import { statfs } from 'node:fs/promises';

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/**
 * The space of the filesystem that holds `directory`. Free is what an unprivileged process may
 * still write (`bavail`): the blocks ext4 keeps for root are no headroom to count on.
 */
export async function diskSpaceOf(directory: string): Promise<DiskSpace> {
  const stats = await statfs(directory);
  return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
}
