/**
 * Where original images live (DESIGN.md §2): files under the data dir by default, any
 * S3-compatible store when configured. Keys are ours, never a user's path.
 */
export interface BlobStore {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or undefined when no blob has this key. */
  get(key: string): Promise<Buffer | undefined>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

/** Blob keys are generated, so anything else is a bug: refuse it before it touches a disk or bucket. */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`Invalid blob key: ${key}`);
  }
}
