import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

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
      assert.deepEqual(
        [image.body.id, image.body.path, image.body.width, image.body.format],
        [slot.body.imageId, 'shots/rocket.jpg', 640, 'jpeg'],
      );
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
      const answer = await t.request('POST', `/api/images/projects/${projectId}/images/upload`, {
        body: { path: 'a.jpg' },
        key: other.key,
      });
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

  describe(`two-step upload expiry (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    const start = (path: string, project = projectId) =>
      t.request('POST', `/api/images/projects/${project}/images/upload`, { body: { path } });
    const confirm = (imageId: string, project = projectId) =>
      t.request('POST', `/api/images/projects/${project}/images/upload/confirm`, { body: { imageId } });
    const put = (uploadUrl: string, data: Uint8Array) =>
      fetch(t.url + new URL(uploadUrl).pathname, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(data) });
    /** Where the PUT's bytes wait for confirm (FileBlobStore under the data dir). */
    const stagedFile = (project: string, imageId: string) => join(t.dataDir, 'originals', 'uploads', project, imageId);
    /** Moves a slot's expiry into the past, as an hour going by would. */
    const expire = (imageId: string) =>
      t.server.database.db
        .updateTable('pending_uploads')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', imageId)
        .execute();
    const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);

    before(async () => {
      t = await startTestServer(dialect);
      projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Expiry' } })).body.id;
    });
    after(() => t.close());

    it('answers 410 upload_expired to a confirm after the slot expired, and stores nothing', async () => {
      const slot = await start('late.jpg');
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      await expire(slot.body.imageId);
      const answer = await confirm(slot.body.imageId);
      assert.equal(answer.status, 410);
      assert.equal(answer.body.code, 'upload_expired');
      assert.equal((await t.request('GET', `/api/images/projects/${projectId}/images/${slot.body.imageId}`)).status, 404);
      assert.equal(existsSync(stagedFile(projectId, slot.body.imageId)), false, 'its staged file is gone');
    });

    it('answers 410 upload_expired to a PUT after the slot expired, keeping no file', async () => {
      const slot = await start('late-put.jpg');
      await expire(slot.body.imageId);
      const response = await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      assert.equal(response.status, 410);
      assert.equal((await response.json()).code, 'upload_expired');
      assert.equal(existsSync(stagedFile(projectId, slot.body.imageId)), false);
    });

    it('removes expired slots and their staged files on the sweep, keeping live ones', async () => {
      const stale = await start('stale.jpg');
      const live = await start('live.jpg');
      await put(stale.body.uploadUrl, await readTestImage('rocket.jpg'));
      await put(live.body.uploadUrl, await readTestImage('rocket.jpg'));
      await expire(stale.body.imageId);
      await t.server.uploadSweeper.tick(later(1));
      assert.equal(existsSync(stagedFile(projectId, stale.body.imageId)), false);
      assert.equal((await confirm(stale.body.imageId)).status, 404, 'the slot is gone');
      assert.equal(existsSync(stagedFile(projectId, live.body.imageId)), true);
      assert.equal((await confirm(live.body.imageId)).status, 201);
    });

    it('sweeps every slot once its hour is over', async () => {
      const slot = await start('hour.jpg');
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      await t.server.uploadSweeper.tick(later(2));
      assert.equal(existsSync(stagedFile(projectId, slot.body.imageId)), false);
      assert.equal((await confirm(slot.body.imageId)).status, 404);
    });

    it('keeps the original of a confirmed upload when its slot time passes', async () => {
      const slot = await start('kept.jpg');
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      assert.equal((await confirm(slot.body.imageId)).status, 201);
      await t.server.uploadSweeper.tick(later(2));
      const delivered = await fetch(
        `${t.url}/cdn/${(await t.request('GET', `/api/images/projects/${projectId}`)).body.slug}/kept.jpg?w=50`,
      );
      assert.equal(delivered.status, 200);
    });

    it('answers 404, not 410, to another workspace confirming an expired slot', async () => {
      const slot = await start('secret.jpg');
      await expire(slot.body.imageId);
      const other = await t.createWorkspace();
      const theirs = (await t.request('POST', '/api/images/projects', { body: { name: 'Theirs' }, key: other.key })).body.id;
      const answer = await t.request('POST', `/api/images/projects/${theirs}/images/upload/confirm`, {
        body: { imageId: slot.body.imageId },
        key: other.key,
      });
      assert.equal(answer.status, 404);
    });

    it('records one image when one slot is confirmed twice at once, and keeps its original', async () => {
      const slot = await start('twice.jpg');
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      const answers = await Promise.all([confirm(slot.body.imageId), confirm(slot.body.imageId)]);
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 404]);
      const slug = (await t.request('GET', `/api/images/projects/${projectId}`)).body.slug;
      assert.equal((await fetch(`${t.url}/cdn/${slug}/twice.jpg?w=40`)).status, 200, 'the original is still there');
    });

    it('removes the staged files of a deleted project', async () => {
      const doomed = (await t.request('POST', '/api/images/projects', { body: { name: 'Doomed' } })).body.id;
      const slot = await start('staged.jpg', doomed);
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      assert.equal(existsSync(stagedFile(doomed, slot.body.imageId)), true);
      assert.equal((await t.request('DELETE', `/api/images/projects/${doomed}`)).status, 200);
      assert.equal(existsSync(stagedFile(doomed, slot.body.imageId)), false);
      assert.equal((await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'))).status, 404, 'its upload URL is dead');
      assert.equal(existsSync(stagedFile(doomed, slot.body.imageId)), false);
    });
  });

  describe(`two-step upload limits (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    const start = (path: string) => t.request('POST', `/api/images/projects/${projectId}/images/upload`, { body: { path } });
    const confirm = (imageId: string) =>
      t.request('POST', `/api/images/projects/${projectId}/images/upload/confirm`, { body: { imageId } });
    const put = (uploadUrl: string, data: Uint8Array) =>
      fetch(t.url + new URL(uploadUrl).pathname, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(data) });
    const uploadFile = async (path: string) =>
      fetch(`${t.url}/api/images/projects/${projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: path, data: await readTestImage('rocket.jpg') }),
      });

    before(async () => {
      const plan = {
        pagesPerCrawl: 10,
        monthlyCredits: 10,
        imageProjects: 2,
        imagesPerProject: 2,
        scheduledCrawls: false,
        customRulePacks: false,
      };
      t = await startTestServer(dialect, { plans: { free: plan } });
      projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Bounded' } })).body.id;
    });
    after(() => t.close());

    it('counts live slots toward the images per project', async () => {
      assert.equal((await uploadFile('one.jpg')).status, 201);
      const held = await start('two.jpg');
      assert.equal(held.status, 201);
      const third = await start('three.jpg');
      assert.equal(third.status, 403);
      assert.deepEqual([third.body.code, third.body.limit, third.body.current], ['plan_limit_reached', 2, 2]);
      const direct = await uploadFile('four.jpg');
      assert.equal(direct.status, 403, 'a direct upload cannot take the place a slot holds');
      await put(held.body.uploadUrl, await readTestImage('rocket.jpg'));
      assert.equal((await confirm(held.body.imageId)).status, 201, 'the slot fills the place it held');
      assert.equal((await start('five.jpg')).status, 403, 'the project is full');
    });

    it('lets a slot replace an image at the limit, as a direct upload may', async () => {
      const slot = await start('one.jpg');
      assert.equal(slot.status, 201);
      await put(slot.body.uploadUrl, await readTestImage('rocket.jpg'));
      assert.equal((await confirm(slot.body.imageId)).status, 201);
    });

    it('gives the place of an expired slot back', async () => {
      const other = (await t.request('POST', '/api/images/projects', { body: { name: 'Second' } })).body.id;
      const make = (path: string) => t.request('POST', `/api/images/projects/${other}/images/upload`, { body: { path } });
      const first = await make('a.jpg');
      const second = await make('b.jpg');
      assert.equal((await make('c.jpg')).status, 403);
      await t.server.database.db
        .updateTable('pending_uploads')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', 'in', [first.body.imageId, second.body.imageId])
        .execute();
      assert.equal((await make('c.jpg')).status, 201);
    });
  });
}
