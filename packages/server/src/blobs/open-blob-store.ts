import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore, type MakeRoom } from './file-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/**
 * An S3-compatible store when configured, files under the data dir otherwise (DESIGN.md §2).
 * Only files take room on the data disk, so only they ask `makeRoom` (DiskGuard) first.
 */
export function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>, makeRoom?: MakeRoom): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new FileBlobStore(join(config.dataDir, 'originals'), makeRoom);
}
