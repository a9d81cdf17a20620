import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

/** Whether the disk can take `bytes` more; throws (507) when it cannot (DiskGuard.makeRoom). */
export type MakeRoom = (bytes: number) => Promise<void>;

/**
 * Blobs as files below one folder. Writes go to a temporary name first, so a reader never sees
 * half a file, and a write that fails (a full disk) removes what it wrote. With `makeRoom`, a
 * write that would leave the disk nearly full is refused before a byte is written.
 */
export class FileBlobStore implements BlobStore {
  readonly #root: string;
  readonly #makeRoom: MakeRoom | undefined;

  constructor(root: string, makeRoom?: MakeRoom) {
    this.#root = root;
    this.#makeRoom = makeRoom;
  }

  #path(key: string): string {
    assertBlobKey(key);
    return join(this.#root, key);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = this.#path(key);
    await this.#makeRoom?.(data.byteLength);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.#path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  async close(): Promise<void> {}
}
