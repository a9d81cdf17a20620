import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** An S3-compatible store when configured, files under the data dir otherwise (DESIGN.md §2). */
export function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new FileBlobStore(join(config.dataDir, 'originals'));
}
