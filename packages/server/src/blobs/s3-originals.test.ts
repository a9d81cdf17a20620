import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestS3, type TestS3 } from '../testing/test-s3.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** The blob store is chosen once at start (open-blob-store.ts), so one database is enough here. */
describe('originals in an S3-compatible store', () => {
  let s3: TestS3;
  let t: TestServer;
  let projectId: string;
  let slug: string;
  const objectKeys = async () => {
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }));
    return (listed.Contents ?? []).map((object) => object.Key as string);
  };
  const upload = (form: FormData) =>
    fetch(`${t.url}/api/images/projects/${projectId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.key}` },
      body: form,
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  before(async () => {
    s3 = await startTestS3({ prefix: 'loupe/' });
    t = await startTestServer('sqlite', { s3: s3.config });
    const project = await t.request('POST', '/api/images/projects', { body: { name: 'Photos' } });
    projectId = project.body.id;
    slug = project.body.slug;
  });
  after(async () => {
    await t?.close();
    await s3?.close();
  });

  it('keeps an uploaded original in the bucket, under the prefix, and not on disk', async () => {
    const data = await readTestImage('astronaut.png');
    const { status } = await upload(uploadForm({ name: 'astronaut.png', data, type: 'image/png' }));
    assert.equal(status, 201);
    const keys = await objectKeys();
    assert.equal(keys.length, 1);
    assert.match(keys[0], new RegExp(`^loupe/originals/${projectId}/[^/]+$`));
    const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.config.bucket, Key: keys[0] }));
    assert.equal(object.ContentType, 'image/png');
    assert.ok(Buffer.from(await object.Body!.transformToByteArray()).equals(data));
    const onDisk = await readdir(join(t.dataDir, 'originals')).catch(() => []);
    assert.deepEqual(onDisk, []);
  });

  it('serves a variant made from the original in the bucket', async () => {
    const response = await fetch(`${t.url}/cdn/${slug}/astronaut.png?w=50`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^image\//);
    const { width } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    assert.equal(width, 50);
  });

  it('removes the object when its image is deleted', async () => {
    const before = await objectKeys();
    const { body } = await upload(uploadForm({ name: 'gone.png', data: await readTestImage('chelsea.png') }));
    const added = (await objectKeys()).filter((key) => !before.includes(key));
    assert.equal(added.length, 1);
    const deleted = await t.request('DELETE', `/api/images/projects/${projectId}/images/${body.id}`);
    assert.deepEqual(deleted.body, { deleted: true });
    assert.deepEqual((await objectKeys()).sort(), before.sort());
    assert.equal((await t.request('GET', `/api/images/projects/${projectId}/images/${body.id}`)).status, 404);
  });
});
