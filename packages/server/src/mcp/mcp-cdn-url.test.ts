import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { callError, callOk } from './test-tool-calls.ts';

for (const dialect of testDialects()) {
  describe(`MCP cdn_url (${dialect})`, () => {
    let t: TestServer;
    let client: Client;

    /** A project with one image and a preset `thumb`. */
    async function projectWithImage(name: string): Promise<{ projectId: string; imageId: string }> {
      const project = await callOk(client, 'create_image_project', { body: { name } });
      const data = await readTestImage('no_time_for_that_tiny.gif');
      const image = await callOk(client, 'upload_image', {
        projectId: project.id,
        upload: { file: data.toString('base64'), filename: 'tiny.gif', fields: { path: 'photos/tiny one.gif' } },
      });
      await callOk(client, 'create_preset', { projectId: project.id, body: { name: 'thumb', transforms: { width: 4 } } });
      return { projectId: project.id, imageId: image.id };
    }

    /** Fetches a CDN URL from the test server (its public address is the default, not the loopback port). */
    const deliver = (url: string | URL) => {
      const { pathname, search } = new URL(url);
      return fetch(new URL(pathname + search, t.url));
    };

    before(async () => {
      t = await startTestServer(dialect);
      client = new Client({ name: 'loupe-mcp-cdn-url-test', version: '1.0.0' });
      const requestInit = { headers: { authorization: `Bearer ${t.owner.key}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp?toolsets=images,presets,cdn', t.url), { requestInit }));
    });
    after(async () => {
      await client.close();
      await t.close();
    });

    it('builds an unsigned URL through a preset, or of the original, that the CDN delivers', async () => {
      const image = await projectWithImage('Unsigned');
      const thumb = await callOk(client, 'cdn_url', { ...image, preset: 'thumb' });
      assert.deepEqual([thumb.signed, thumb.expiresAt], [false, null]);
      assert.equal(new URL(thumb.url).searchParams.get('t'), 'thumb');
      const delivered = await deliver(thumb.url);
      assert.equal(delivered.status, 200);
      assert.match(delivered.headers.get('content-type') ?? '', /^image\//);
      const original = await callOk(client, 'cdn_url', image);
      assert.equal(new URL(original.url).search, '');
      assert.equal((await deliver(original.url)).status, 200);
    });

    it('signs the URL where the project signs, with an expiry when asked; the unsigned one is refused', async () => {
      const image = await projectWithImage('Signed');
      await callOk(client, 'update_signing', { projectId: image.projectId, body: { requireSignedUrls: true } });
      const signed = await callOk(client, 'cdn_url', { ...image, preset: 'thumb', expiresIn: 600 });
      assert.equal(signed.signed, true);
      assert.ok(Date.parse(signed.expiresAt) > Date.now());
      assert.equal((await deliver(signed.url)).status, 200);
      const unsigned = new URL(signed.url);
      unsigned.searchParams.delete('s');
      unsigned.searchParams.delete('exp');
      assert.equal((await deliver(unsigned)).status, 403);
      const lasting = await callOk(client, 'cdn_url', image);
      assert.deepEqual([lasting.signed, lasting.expiresAt], [true, null]);
      assert.equal((await deliver(lasting.url)).status, 200);
    });

    it('refuses an unknown preset with the names, an unknown image or project, and expiresIn without signing', async () => {
      const image = await projectWithImage('Refusals');
      const noPreset = await callError(client, 'cdn_url', { ...image, preset: 'large' });
      assert.equal(noPreset.code, 'not_found');
      assert.deepEqual(noPreset.presets, ['thumb']);
      assert.equal((await callError(client, 'cdn_url', { ...image, imageId: randomUUID() })).code, 'not_found');
      assert.equal((await callError(client, 'cdn_url', { ...image, projectId: randomUUID() })).code, 'not_found');
      const other = await t.createWorkspace();
      const foreign = new Client({ name: 'foreign', version: '1.0.0' });
      const requestInit = { headers: { authorization: `Bearer ${other.key}` } };
      await foreign.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { requestInit }));
      assert.equal((await callError(foreign, 'cdn_url', image)).code, 'not_found');
      await foreign.close();
      assert.equal((await callError(client, 'cdn_url', { ...image, expiresIn: 60 })).code, 'validation_failed');
      for (const args of [
        { ...image, preset: 'bad name' },
        { ...image, expiresIn: 0 },
        { projectId: image.projectId },
        { ...image, extra: 1 },
      ]) {
        assert.equal((await callError(client, 'cdn_url', args)).code, 'validation_failed', JSON.stringify(args));
      }
    });
  });
}
