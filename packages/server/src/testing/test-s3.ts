import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Config } from '../config.ts';

/** An S3-compatible server on a loopback port, with one empty bucket, for one test suite. */
export interface TestS3 {
  /** What S3_* would configure to reach the bucket. */
  config: S3Config;
  /** A client of the same server, to look into the bucket from outside Loupe. */
  client: S3Client;
  close(): Promise<void>;
}

/**
 * s3rver: a fake S3 in this process, storing objects in a temporary folder. It knows only the
 * access key S3RVER and does not verify SigV4 signatures, so these tests prove the S3 API calls,
 * not the credentials.
 */
export async function startTestS3(options: { prefix?: string } = {}): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'loupe-s3-'));
  const bucket = 'loupe-originals';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const config: S3Config = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: options.prefix,
  };
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    forcePathStyle: true,
  });
  return {
    config,
    client,
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
