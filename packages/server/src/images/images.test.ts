import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';

for (const dialect of testDialects()) {
  describe(`images (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;
    const upload = (form: FormData, options: { project?: string; key?: string } = {}) =>
      fetch(`${t.url}/api/images/projects/${options.project ?? projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.key ?? t.owner.key}` },
        body: form,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const blobFiles = async () =>
      (await readdir(join(t.dataDir, 'originals'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile())
        .length;

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Photos' } });
      projectId = project.body.id;
      slug = project.body.slug;
    });
    after(() => t.close());

    it('stores an uploaded photo at its file name, with what decoding found', async () => {
      const data = await readTestImage('astronaut.png');
      const { status, body } = await upload(uploadForm({ name: 'astronaut.png', data, type: 'image/png' }));
      assert.equal(status, 201);
      assert.equal(body.path, 'astronaut.png');
      assert.equal(body.filename, 'astronaut.png');
      assert.deepEqual([body.width, body.height, body.format, body.contentType], [512, 512, 'png', 'image/png']);
      assert.equal(body.fileSize, data.length);
      assert.match(body.blurhash, /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{20,}$/);
      assert.equal(body.url, `http://localhost:8080/cdn/${slug}/astronaut.png`);
      assert.deepEqual([body.altText, body.tags], [null, []]);
    });

    it('stores at the path given, and trusts the decoded format over the declared type', async () => {
      const data = await readTestImage('rocket.jpg');
      const { status, body } = await upload(
        uploadForm({ name: 'x.png', data, type: 'image/png' }, { path: 'blog/2026/rocket launch.jpg' }),
      );
      assert.equal(status, 201);
      assert.equal(body.path, 'blog/2026/rocket launch.jpg');
      assert.deepEqual([body.format, body.contentType, body.width, body.height], ['jpeg', 'image/jpeg', 640, 427]);
      assert.ok(body.url.endsWith('/blog/2026/rocket%20launch.jpg'));
    });

    it('refuses a truncated JPEG with 400 and stores nothing', async () => {
      const before = await blobFiles();
      const listed = await t.request('GET', `/api/images/projects/${projectId}/images?limit=100`);
      const { status, body } = await upload(uploadForm({ name: 'bad.jpg', data: await readTestImage('truncated.jpg') }));
      assert.equal(status, 400);
      assert.equal(body.code, 'invalid_image');
      assert.equal(await blobFiles(), before);
      const after = await t.request('GET', `/api/images/projects/${projectId}/images?limit=100`);
      assert.equal(after.body.length, listed.body.length);
    });

    it('refuses a file that is not an image with 415 and stores nothing', async () => {
      const before = await blobFiles();
      const { status, body } = await upload(uploadForm({ name: 'notes.txt', data: Buffer.from('hello, not an image') }));
      assert.equal(status, 415);
      assert.equal(body.code, 'unsupported_media_type');
      assert.equal(await blobFiles(), before);
    });

    it('refuses an SVG carrying a script', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
      const { status } = await upload(uploadForm({ name: 'evil.svg', data: svg, type: 'image/svg+xml' }));
      assert.equal(status, 415);
    });

    for (const path of ['../escape.png', 'a/../b.png', '/abs.png', 'a//b.png', 'a/./b.png', 'back\\slash.png', 'q?.png']) {
      it(`refuses the path ${JSON.stringify(path)}`, async () => {
        const { status, body } = await upload(uploadForm({ name: 'x.png', data: await readTestImage('chelsea.png') }, { path }));
        assert.equal(status, 400);
        assert.ok(body.details.fieldErrors.path);
      });
    }

    it('refuses a multipart body without a file part', async () => {
      const form = new FormData();
      form.set('path', 'a.png');
      const { status, body } = await upload(form);
      assert.equal(status, 400);
      assert.ok(body.details.fieldErrors.file);
    });

    it('refuses unknown multipart fields', async () => {
      const { status, body } = await upload(uploadForm({ name: 'c.png', data: await readTestImage('chelsea.png') }, { colour: 'red' }));
      assert.equal(status, 400);
      assert.ok(body.details.fieldErrors.colour);
    });

    it('replaces the image at an existing path, keeping its id, alt text and tags', async () => {
      const first = await upload(uploadForm({ name: 'swap.png', data: await readTestImage('chelsea.png') }));
      await t.request('PATCH', `/api/images/projects/${projectId}/images/${first.body.id}`, {
        body: { altText: 'A cat', tags: ['pets'] },
      });
      const count = (await t.request('GET', `/api/images/projects/${projectId}`)).body.stats.imageCount;
      const second = await upload(uploadForm({ name: 'swap.png', data: await readTestImage('coffee.png') }));
      assert.equal(second.status, 201);
      assert.equal(second.body.id, first.body.id);
      assert.deepEqual([second.body.width, second.body.height], [600, 400]);
      assert.deepEqual([second.body.altText, second.body.tags], ['A cat', ['pets']]);
      assert.equal((await t.request('GET', `/api/images/projects/${projectId}`)).body.stats.imageCount, count);
    });

    it('counts images and their bytes in the project stats', async () => {
      const listed = await t.request('GET', `/api/images/projects/${projectId}/images?limit=100`);
      const stats = (await t.request('GET', `/api/images/projects/${projectId}`)).body.stats;
      assert.equal(stats.imageCount, listed.body.length);
      assert.equal(
        stats.totalSize,
        listed.body.reduce((sum: number, image: { fileSize: number }) => sum + image.fileSize, 0),
      );
    });

    it('lists by path prefix, exactly (case-sensitive)', async () => {
      await upload(uploadForm({ name: 'a.png', data: await readTestImage('chelsea.png') }, { path: 'Blog/upper.png' }));
      const lower = await t.request('GET', `/api/images/projects/${projectId}/images?prefix=blog/`);
      assert.deepEqual(
        lower.body.map((i: { path: string }) => i.path),
        ['blog/2026/rocket launch.jpg'],
      );
      const upper = await t.request('GET', `/api/images/projects/${projectId}/images?prefix=Blog/`);
      assert.deepEqual(
        upper.body.map((i: { path: string }) => i.path),
        ['Blog/upper.png'],
      );
    });

    it('lists by tag, exactly', async () => {
      const tagged = await t.request('GET', `/api/images/projects/${projectId}/images?tag=pets`);
      assert.deepEqual(
        tagged.body.map((i: { path: string }) => i.path),
        ['swap.png'],
      );
      assert.deepEqual((await t.request('GET', `/api/images/projects/${projectId}/images?tag=Pets`)).body, []);
    });

    it('pages through images with the Link header', async () => {
      const first = await t.request('GET', `/api/images/projects/${projectId}/images?limit=2`);
      assert.equal(first.body.length, 2);
      const next = nextPage(first);
      assert.ok(next);
      const second = await t.request('GET', next);
      assert.ok(second.body.length >= 1);
      assert.ok(!second.body.some((i: { id: string }) => first.body.some((j: { id: string }) => j.id === i.id)));
    });

    describe('editing alt text and tags', () => {
      let imageId: string;
      before(async () => {
        imageId = (await upload(uploadForm({ name: 'edit.png', data: await readTestImage('chelsea.png') }))).body.id;
      });
      const patch = (body: unknown) => t.request('PATCH', `/api/images/projects/${projectId}/images/${imageId}`, { body });

      it('accepts alt text of 1000 characters and refuses 1001', async () => {
        assert.equal((await patch({ altText: 'a'.repeat(1000) })).status, 200);
        assert.equal((await patch({ altText: 'a'.repeat(1001) })).status, 400);
      });
      it('clears alt text with null', async () => {
        assert.equal((await patch({ altText: null })).body.altText, null);
      });
      it('accepts 50 tags of 100 characters and refuses 51 tags or 101 characters', async () => {
        const fifty = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 't'));
        assert.equal((await patch({ tags: fifty })).status, 200);
        assert.equal((await patch({ tags: [...fifty, 'one-more'] })).status, 400);
        assert.equal((await patch({ tags: ['t'.repeat(101)] })).status, 400);
      });
      it('refuses repeated tags, empty tags, wrong types and unknown fields', async () => {
        for (const body of [{ tags: ['a', 'a'] }, { tags: [''] }, { tags: 'a' }, { altText: 5 }, { caption: 'x' }, {}]) {
          const answer = await patch(body);
          assert.equal(answer.status, 400, JSON.stringify(body));
          assert.equal(answer.body.code, 'validation_failed');
        }
      });
    });

    it('deletes an image and its original', async () => {
      const created = await upload(uploadForm({ name: 'gone.png', data: await readTestImage('chelsea.png') }));
      const files = await blobFiles();
      const deleted = await t.request('DELETE', `/api/images/projects/${projectId}/images/${created.body.id}`);
      assert.deepEqual(deleted.body, { deleted: true });
      assert.equal(await blobFiles(), files - 1);
      assert.equal((await t.request('GET', `/api/images/projects/${projectId}/images/${created.body.id}`)).status, 404);
    });

    it("hides another workspace's images", async () => {
      const other = await t.createWorkspace();
      const image = (await t.request('GET', `/api/images/projects/${projectId}/images?limit=1`)).body[0];
      const answer = await t.request('GET', `/api/images/projects/${projectId}/images/${image.id}`, { key: other.key });
      assert.equal(answer.status, 404);
      const { status } = await upload(uploadForm({ name: 'x.png', data: await readTestImage('chelsea.png') }), { key: other.key });
      assert.equal(status, 404);
    });

    it('does not let a viewer upload', async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      const { status, body } = await upload(uploadForm({ name: 'v.png', data: await readTestImage('chelsea.png') }), { key: viewer });
      assert.equal(status, 403);
      assert.equal(body.code, 'forbidden');
    });

    it('refuses multipart on an operation that takes JSON', async () => {
      const response = await fetch(`${t.url}/api/images/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: 'x.png', data: Buffer.from('x') }),
      });
      assert.equal(response.status, 415);
    });

    it('refuses to import from a loopback address', async () => {
      const answer = await t.request('POST', `/api/images/projects/${projectId}/images`, {
        body: { url: `${t.url}/healthz` },
      });
      assert.equal(answer.status, 400);
      assert.match(answer.body.details.fieldErrors.url[0], /not public/);
    });
  });

  describe(`image limits (${dialect})`, () => {
    let t: TestServer;
    let site: Server;
    let projectId: string;
    before(async () => {
      const plan = {
        pagesPerCrawl: 10,
        monthlyCredits: 10,
        imageProjects: 1,
        imagesPerProject: 2,
        scheduledCrawls: false,
        customRulePacks: false,
      };
      t = await startTestServer(dialect, { plans: { free: plan }, maxUploadBytes: 200_000, crawlAllowPrivate: true });
      projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Limits' } })).body.id;
      const rocket = await readTestImage('rocket.jpg');
      site = createServer((request, response) => {
        if (request.url === '/photos/rocket.jpg') response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket);
        else if (request.url === '/moved') response.writeHead(302, { location: '/photos/rocket.jpg' }).end();
        else response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      site.close();
      await t.close();
    });
    const siteUrl = (path: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${path}`;

    it('imports an image from a URL, following redirects, named after the last path segment', async () => {
      const answer = await t.request('POST', `/api/images/projects/${projectId}/images`, { body: { url: siteUrl('/moved') } });
      assert.equal(answer.status, 201);
      assert.deepEqual([answer.body.path, answer.body.width, answer.body.format], ['rocket.jpg', 640, 'jpeg']);
    });

    it('says which address failed when the import source answers 404', async () => {
      const answer = await t.request('POST', `/api/images/projects/${projectId}/images`, { body: { url: siteUrl('/none.jpg') } });
      assert.equal(answer.status, 400);
      assert.match(answer.body.details.fieldErrors.url[0], /404/);
    });

    it('refuses an upload over the size limit with 413', async () => {
      const response = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: 'big.png', data: await readTestImage('astronaut.png') }),
      });
      assert.equal(response.status, 413);
      assert.equal((await response.json()).code, 'payload_too_large');
    });

    it("stops at the plan's images per project with 403, limit and current", async () => {
      await t.request('POST', `/api/images/projects/${projectId}/images`, {
        body: { url: siteUrl('/photos/rocket.jpg'), path: 'two.jpg' },
      });
      const answer = await t.request('POST', `/api/images/projects/${projectId}/images`, {
        body: { url: siteUrl('/photos/rocket.jpg'), path: 'three.jpg' },
      });
      assert.equal(answer.status, 403);
      assert.deepEqual([answer.body.code, answer.body.limit, answer.body.current], ['plan_limit_reached', 2, 2]);
      const replaced = await t.request('POST', `/api/images/projects/${projectId}/images`, {
        body: { url: siteUrl('/photos/rocket.jpg'), path: 'two.jpg' },
      });
      assert.equal(replaced.status, 201, 'replacing an existing path is not a new image');
    });
  });
}
