import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../../testing/test-dialects.ts';
import { readTestImage } from '../../testing/test-images.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

for (const dialect of testDialects()) {
  describe(`two-step upload (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    const start = (path: string) => t.request('POST', `/api/images/projects/${projectId}/images/upload`, { body: { path } });
    const confirm = (imageId: string) =>
      t.request('POST', `/api/images/projects/${projectId}/images/upload/confirm`, { body: { imageId } });
    /** The URL as handed out, pointed at the test server (LOUPE_PUBLIC_URL is the default localhost:8080). */
    const put = (uploadUrl: string, data: Uint8Array, type = 'image/jpeg') =>
      fetch(t.url + new URL(uploadUrl).pathname, { method: 'PUT', headers: { 'content-type': type }, body: new Uint8Array(data) });

    before(async () => {
      t = await startTestServer(dialect);
      projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Two step' } })).body.id;
    });
    after(() => t.close());

    it('stores an image after upload, PUT and confirm, under the announced id', async () => {
      const slot = await start('shots/rocket.jpg');
      assert.equal(slot.status, 201);
      assert.match(slot.body.uploadUrl, /^http:\/\/localhost:8080\/api\/images\/uploads\/[A-Za-z0-9_-]{43}$/);
      assert.ok(Date.parse(slot.body.expiresAt) > Date.now());
      const response = await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      assert.equal(response.status, 200);
      const image = await confirm(slot.body.imageId);
      assert.equal(image.status, 201);
      assert.deepEqual([image.body.id, image.body.path, image.body.width, image.body.format], [slot.body.imageId, 'shots/rocket.jpg', 640, 'jpeg']);
    });

    it('takes a PUT with any media type, even one that looks like JSON', async () => {
      const slot = await start('odd.png');
      assert.equal((await put(slot.body.uploadUrl, await readTestImage('chelsea.png'), 'application/json')).status, 200);
      assert.equal((await confirm(slot.body.imageId)).status, 201);
    });

    it('refuses to confirm before anything was PUT', async () => {
      const slot = await start('early.jpg');
      const answer = await confirm(slot.body.imageId);
      assert.equal(answer.status, 400);
      assert.ok(answer.body.details.fieldErrors.imageId);
    });

    it('drops a PUT that is not an image on confirm, storing nothing', async () => {
      const slot = await start('text.jpg');
      await put(slot.body.uploadUrl, Buffer.from('just text'), 'text/plain');
      const answer = await confirm(slot.body.imageId);
      assert.equal(answer.status, 415);
      assert.equal((await confirm(slot.body.imageId)).status, 404, 'the slot is gone');
      const listed = await t.request('GET', `/api/images/projects/${projectId}/images?prefix=text`);
      assert.deepEqual(listed.body, []);
    });

    it('answers 404 to a PUT with an unknown token, without an API key', async () => {
      const response = await fetch(`${t.url}/api/images/uploads/not-a-real-token`, { method: 'PUT', body: 'x' });
      assert.equal(response.status, 404);
    });

    it('refuses a start with a bad path, and for another workspace’s project', async () => {
      assert.equal((await start('../x.jpg')).status, 400);
      const other = await t.createWorkspace();
      const answer = await t.request('POST', `/api/images/projects/${projectId}/images/upload`, { body: { path: 'a.jpg' }, key: other.key });
      assert.equal(answer.status, 404);
    });

    it('does not confirm a slot of another project', async () => {
      const slot = await start('mine.jpg');
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      const otherProject = (await t.request('POST', '/api/images/projects', { body: { name: 'Other' } })).body.id;
      const answer = await t.request('POST', `/api/images/projects/${otherProject}/images/upload/confirm`, {
        body: { imageId: slot.body.imageId },
      });
      assert.equal(answer.status, 404);
    });
  });
}
