import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { readTestImage } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import { createClient, isLoupeError, type LoupeClient } from './index.ts';
import { startScriptedServer } from './testing/scripted-server.ts';

describe('SDK client against the real server', () => {
  let t: TestServer;
  let site: TestSite;
  let loupe: LoupeClient;
  let png: Buffer;
  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    png = await readTestImage('coffee.png');
    site = await startTestSite({
      pages: {
        '/': htmlPage({ path: '/', links: ['/a', '/b'] }),
        '/a': htmlPage({ path: '/a', links: ['/'] }),
        '/b': htmlPage({ path: '/b', links: ['/'] }),
        '/coffee.png': { body: png, contentType: 'image/png' },
      },
    });
    loupe = createClient({ baseUrl: t.url, apiKey: t.owner.key, workspaceId: t.owner.workspaceId });
    // The free plan's three image projects would not go round every test.
    await loupe.updateTeam({ body: { plan: 'business' } });
  });
  after(async () => {
    await site.close();
    await t.close();
  });

  /** A crawl of the test site, followed to its end through the SDK's event stream. */
  async function crawlToEnd() {
    const crawl = await loupe.startCrawl({ body: { url: site.url('/'), mode: 'site', maxPages: 10 } });
    const events = [];
    for await (const event of loupe.streamCrawlEvents({ crawlId: crawl.id })) events.push(event);
    return { crawl, events };
  }

  let ended: Promise<{ crawlId: string; reportId: string }> | undefined;
  /** One ended crawl and its report, shared by the tests that only read them. */
  function endedCrawl() {
    ended ??= crawlToEnd().then(async ({ crawl }) => ({
      crawlId: crawl.id,
      reportId: (await loupe.getCrawl({ crawlId: crawl.id })).reportId!,
    }));
    return ended;
  }

  it('creates a project and a preset, and reads them back', async () => {
    const project = await loupe.createImageProject({ body: { name: 'SDK' } });
    const preset = await loupe.createPreset({ projectId: project.id, body: { name: 'thumb', transforms: { width: 120 } } });
    assert.deepEqual(await loupe.getPreset({ projectId: project.id, presetId: preset.id }), preset);
  });

  it('sends the workspace header on workspace API calls', async () => {
    const created = await loupe.createApiKey({ body: { name: 'from sdk', scopes: ['images:read'] } });
    assert.match(created.key, /^loupe_/);
  });

  describe('paging', () => {
    it('answers the first page from the plain method, and every page from client.all', async () => {
      const project = await loupe.createImageProject({ body: { name: 'Paged' } });
      for (const name of ['a', 'b', 'c']) await loupe.createPreset({ projectId: project.id, body: { name, transforms: { width: 10 } } });
      assert.deepEqual(
        (await loupe.listPresets({ projectId: project.id, limit: 2 })).map((preset) => preset.name),
        ['a', 'b'],
      );
      const names: string[] = [];
      for await (const preset of loupe.all.listPresets({ projectId: project.id, limit: 1 })) names.push(preset.name);
      assert.deepEqual(names, ['a', 'b', 'c']);
    });

    it('answers one page and the cursor of the next from client.page, null on the last', async () => {
      const project = await loupe.createImageProject({ body: { name: 'Paged by hand' } });
      for (const name of ['a', 'b', 'c']) await loupe.createPreset({ projectId: project.id, body: { name, transforms: { width: 10 } } });
      const first = await loupe.page.listPresets({ projectId: project.id, limit: 2 });
      assert.deepEqual(
        first.items.map((preset) => preset.name),
        ['a', 'b'],
      );
      assert.ok(first.nextCursor);
      const second = await loupe.page.listPresets({ projectId: project.id, limit: 2, cursor: first.nextCursor });
      assert.deepEqual(
        second.items.map((preset) => preset.name),
        ['c'],
      );
      assert.equal(second.nextCursor, null);
    });

    it('keeps the filters on every page it follows', async () => {
      const project = await loupe.createImageProject({ body: { name: 'Filtered' } });
      for (const path of ['a/1.png', 'a/2.png', 'b/1.png', 'a/3.png']) {
        await loupe.uploadImage({ projectId: project.id, upload: { file: png, filename: 'coffee.png', fields: { path } } });
      }
      const paths: string[] = [];
      for await (const image of loupe.all.listImages({ projectId: project.id, prefix: 'a/', limit: 1 })) paths.push(image.path);
      assert.deepEqual(paths.sort(), ['a/1.png', 'a/2.png', 'a/3.png']);
    });

    it('stops requesting pages when the loop breaks', async () => {
      const server = await startScriptedServer([
        { status: 200, headers: { link: '</api/images/projects?cursor=next>; rel="next"' }, body: [{ id: '1' }, { id: '2' }] },
      ]);
      try {
        const client = createClient({ baseUrl: server.url });
        for await (const project of client.all.listImageProjects()) if (project.id === '1') break;
        assert.equal(server.received.length, 1);
      } finally {
        await server.close();
      }
    });
  });

  describe('uploads', () => {
    it('uploads bytes as multipart, at the path given in fields', async () => {
      const project = await loupe.createImageProject({ body: { name: 'Uploads' } });
      const image = await loupe.uploadImage({
        projectId: project.id,
        upload: { file: png, filename: 'coffee.png', contentType: 'image/png', fields: { path: 'drinks/coffee.png' } },
      });
      assert.equal(image.path, 'drinks/coffee.png');
      assert.equal(image.format, 'png');
      assert.equal(image.fileSize, png.length);
    });

    it('uploads a Blob, at its file name when no path is given', async () => {
      const project = await loupe.createImageProject({ body: { name: 'Blobs' } });
      const file = new Blob([new Uint8Array(png)], { type: 'image/png' });
      const image = await loupe.uploadImage({ projectId: project.id, upload: { file, filename: 'cup.png' } });
      assert.equal(image.path, 'cup.png');
      assert.equal(image.contentType, 'image/png');
    });

    it('imports from a URL with a JSON body instead', async () => {
      const project = await loupe.createImageProject({ body: { name: 'Imports' } });
      const image = await loupe.uploadImage({ projectId: project.id, body: { url: site.url('/coffee.png'), path: 'imported.png' } });
      assert.equal(image.path, 'imported.png');
      assert.equal(image.fileSize, png.length);
    });
  });

  describe('crawl events, reports and downloads', () => {
    it('streams a crawl’s events until it ends, the last with the report id', async () => {
      const { crawl, events } = await crawlToEnd();
      const last = events.at(-1);
      assert.equal(last?.type, 'status');
      assert.equal(last.type === 'status' && last.status, 'completed');
      assert.ok(events.some((event) => event.type === 'progress'));
      const finished = await loupe.getCrawl({ crawlId: crawl.id });
      assert.equal(last.type === 'status' && last.reportId, finished.reportId);
    });

    it('opens the stream when awaited, throwing a refusal before any event', async () => {
      await assert.rejects(
        loupe.streamCrawlEvents({ crawlId: '0190b8a4-7c1e-7000-8000-000000000000' }),
        (error) => isLoupeError(error, 'not_found') && error.status === 404,
      );
      const events = await loupe.streamCrawlEvents({ crawlId: (await endedCrawl()).crawlId });
      const seen = [];
      for await (const event of events) seen.push(event);
      assert.deepEqual(
        seen.map((event) => event.type),
        ['status'],
      );
    });

    it('downloads an export as text for CSV and parsed for JSON', async () => {
      const id = (await endedCrawl()).reportId;
      const csv = await loupe.exportReport({ reportId: id, format: 'csv' });
      assert.equal(typeof csv, 'string');
      assert.equal(
        String(csv).split('\r\n')[0],
        'url,status,rule_id,category,severity,title,count,detail,position,instance,lcp_ms,cls,tbt_ms',
      );
      const json = (await loupe.exportReport({ reportId: id, format: 'json' })) as { report: { id: string }; pages: unknown[] };
      assert.equal(json.report.id, id);
      assert.equal(json.pages.length, 3);
    });

    it('reads a shared report without any key', async () => {
      const share = await loupe.shareReport({ reportId: (await endedCrawl()).reportId });
      const anonymous = createClient({ baseUrl: t.url });
      const shared = await anonymous.getSharedReport({ token: share.token });
      assert.equal(shared.id, (await endedCrawl()).reportId);
    });
  });

  describe('configuration', () => {
    it('defaults baseUrl to the page’s origin in a browser', async () => {
      const page = globalThis as { location?: { origin: string } };
      page.location = { origin: t.url };
      try {
        const inPage = createClient({ apiKey: t.owner.key, workspaceId: t.owner.workspaceId });
        assert.equal((await inPage.getCredits()).balance >= 0, true);
      } finally {
        delete page.location;
      }
    });

    it('needs a baseUrl outside a browser', () => {
      assert.throws(() => createClient({ apiKey: 'loupe_x' }), TypeError);
    });

    it('sends the extra headers on every request, and no Authorization without an apiKey', async () => {
      const server = await startScriptedServer([{ status: 200, body: [] }]);
      try {
        const inPage = createClient({ baseUrl: server.url, workspaceId: 'w1', headers: { 'x-csrf-token': 'token-1' } });
        await inPage.listReports();
        await inPage.createImageProject({ body: { name: 'x' } });
        for (const request of server.received) {
          assert.equal(request.headers['x-csrf-token'], 'token-1');
          assert.equal(request.headers.authorization, undefined);
        }
        assert.equal(server.received[0]!.headers['x-service-team'], 'w1');
      } finally {
        await server.close();
      }
    });

    it('refuses a request without a path parameter before sending it', async () => {
      const refuse: typeof fetch = () => Promise.reject(new Error('nothing should be sent'));
      const client = createClient({ baseUrl: t.url, fetch: refuse });
      await assert.rejects(
        client.getImageProject({ projectId: '' }),
        (error) => isLoupeError(error, 'validation_failed') && 'projectId' in (error.details?.fieldErrors ?? {}),
      );
    });
  });
});
