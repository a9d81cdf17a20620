import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerErrorHandling } from '../http/error-handler.ts';
import { registerDashboard } from './dashboard-routes.ts';

const INDEX = '<!doctype html><title>Loupe</title><div id="root"></div>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** The plugin alone on a loopback port, over a build made up for the test. */
async function serve(directory: string): Promise<{ url: string; app: FastifyInstance }> {
  const app = Fastify();
  registerErrorHandling(app);
  app.get('/api/images/projects', async () => []);
  await registerDashboard(app, { directory });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, app };
}

describe('dashboard files', () => {
  let directory: string;
  let url: string;
  let app: FastifyInstance;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'loupe-dashboard-'));
    await mkdir(join(directory, 'assets'));
    await writeFile(join(directory, 'index.html'), INDEX);
    await writeFile(join(directory, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(join(directory, 'assets', 'index-abc123.js'), SCRIPT);
    await writeFile(join(directory, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
    ({ url, app } = await serve(directory));
  });
  after(async () => {
    await app.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('serves index.html at / to be revalidated every time, with a content security policy', async () => {
    const response = await fetch(`${url}/`, { headers: HTML });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), INDEX);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  });

  it('serves hashed assets cached for a year, brotli-compressed when the browser accepts it', async () => {
    const response = await fetch(`${url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-encoding'), 'br');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await response.text(), SCRIPT);
  });

  it('serves the uncompressed file to a client that accepts no compression', async () => {
    const response = await fetch(`${url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-encoding'), null);
    assert.equal(await response.text(), SCRIPT);
  });

  it('answers a page of the app that a browser asks for with index.html (client-side routing)', async () => {
    const response = await fetch(`${url}/w/0196a3b0-0000-7000-8000-000000000000/images?x=1`, { headers: HTML });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), INDEX);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
  });

  it('leaves the API its JSON 404 even when a browser asks for an unknown API path', async () => {
    const response = await fetch(`${url}/api/nothing-here`, { headers: HTML });
    assert.equal(response.status, 404);
    assert.equal((await response.json()).code, 'not_found');
  });

  it('does not shadow the routes the server has', async () => {
    const response = await fetch(`${url}/api/images/projects`, { headers: HTML });
    assert.deepEqual(await response.json(), []);
  });

  it('answers a missing file with 404 rather than the app', async () => {
    const response = await fetch(`${url}/assets/gone-123.js`);
    assert.equal(response.status, 404);
    assert.equal((await response.json()).code, 'not_found');
  });

  it('never serves a file outside the build', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/assets/..%2f..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd']) {
      const response = await fetch(`${url}${path}`);
      const text = await response.text();
      assert.ok(!text.includes('root:'), path);
      assert.notEqual(response.status, 500, path);
    }
  });
});

describe('dashboard not built', () => {
  let directory: string;
  let url: string;
  let app: FastifyInstance;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'loupe-dashboard-empty-'));
    ({ url, app } = await serve(join(directory, 'dist')));
  });
  after(async () => {
    await app.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers / with how to build it', async () => {
    const response = await fetch(`${url}/`, { headers: HTML });
    assert.equal(response.status, 503);
    assert.match(await response.text(), /npm run build -w packages\/dashboard/);
  });

  it('still serves the API', async () => {
    assert.equal((await fetch(`${url}/api/images/projects`)).status, 200);
  });
});
