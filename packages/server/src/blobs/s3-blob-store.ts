import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.ts';
import { assertBlobKey, type BlobStore } from './blob-store.ts';

/** Blobs as objects in one bucket of any S3-compatible store (DESIGN.md §2), below an optional key prefix. */
export class S3BlobStore implements BlobStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(config: S3Config) {
    this.#client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Path-style addressing (endpoint/bucket/key) is what MinIO, Ceph, Garage and most other
      // S3-compatible servers accept; virtual-host style needs wildcard DNS for the bucket.
      forcePathStyle: true,
      // The SDK's default CRC32 checksums (since 3.729) are refused by many S3-compatible
      // servers; send and check them only where the S3 API requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.#bucket = config.bucket;
    this.#prefix = config.prefix ?? '';
  }

  #key(key: string): string {
    assertBlobKey(key);
    return this.#prefix + key;
  }

  async put(key: string, data: Uint8Array, contentType: string): Promise<void> {
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: this.#key(key), Body: data, ContentType: contentType }));
  }

  async get(key: string): Promise<Buffer | undefined> {
    const objectKey = this.#key(key);
    try {
      const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: objectKey }));
      if (!answer.Body) return Buffer.alloc(0);
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a key that does not exist, so a missing blob is not an error here either.
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}

/**
 * NoSuchKey on S3 itself; some compatible servers answer a bare 404 instead. A missing bucket
 * is a configuration error, not a missing image, so it is thrown.
 */
export function isMissingObject(error: unknown): boolean {
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}
