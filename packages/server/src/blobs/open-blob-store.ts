import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';

/** Files under the data dir (S3-compatible stores join here when configured). */
export function openBlobStore(config: Pick<Config, 'dataDir'>): BlobStore {
  return new FileBlobStore(join(config.dataDir, 'originals'));
}
