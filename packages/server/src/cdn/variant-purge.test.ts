import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { toolName } from '../mcp/mcp-tools.ts';
import { servedTools } from '../mcp/served-tools.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { decode, type Pixels } from '../transform/test-pixels.ts';

/** Mean of max(R,G,B) − min(R,G,B): near 0 for a grey image, well above for chelsea.png. */
function chroma(image: Pixels): number {
  let total = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const [r, g, b] = image.data.subarray(i * image.channels, i * image.channels + 3);
    total += Math.max(r!, g!, b!) - Math.min(r!, g!, b!);
  }
  return total / (image.width * image.height);
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

for (const dialect of testDialects()) {
  describe(`Purging cached variants (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;

    const upload = async (project: string, path: string, data: Buffer) => {
      const response = await fetch(`${t.url}/api/images/projects/${project}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.owner.key}` },
        body: uploadForm({ name: path, data }, { path }),
      });
      const body = await response.json();
      assert.equal(response.status, 201, JSON.stringify(body));
      return body as { id: string };
    };
    const cdn = async (path: string, query: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${t.url}/cdn/${slug}/${path}?${query}`, { headers });
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };
    const variantFiles = async () => (await filesUnder(join(t.dataDir, 'variants'))).length;
    /** The original's file in the blob store, found by its bytes: what an operator would replace by hand. */
    const originalFile = async (data: Buffer) => {
      for (const path of await filesUnder(join(t.dataDir, 'originals'))) {
        if ((await readFile(path)).equals(data)) return path;
      }
      throw new Error('original not found in the blob store');
    };

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Purge' } });
      projectId = project.body.id;
      slug = project.body.slug;
    });
    after(() => t.close());

    it('serves an original changed outside Loupe only after a purge, under a new ETag', async () => {
      const colour = await readTestImage('chelsea.png');
      const { id } = await upload(projectId, 'cat.png', colour);
      const first = await cdn('cat.png', 'w=120&f=png');
      assert.equal(first.status, 200);
      assert.ok(chroma(await decode(first.body)) > 20);
      const etag = first.headers.get('etag') ?? '';

      await writeFile(await originalFile(colour), await sharp(colour).grayscale().png().toBuffer());
      const stale = await cdn('cat.png', 'w=120&f=png');
      assert.equal(stale.headers.get('x-cache'), 'hit');
      assert.ok(chroma(await decode(stale.body)) > 20);

      const purged = await t.request('POST', `/api/images/projects/${projectId}/images/${id}/purge`);
      assert.equal(purged.status, 200, JSON.stringify(purged.body));
      assert.equal(purged.body.purged, 1);
      assert.ok(purged.body.bytesFreed > first.body.length);

      const fresh = await cdn('cat.png', 'w=120&f=png', { 'if-none-match': etag });
      assert.equal(fresh.status, 200);
      assert.equal(fresh.headers.get('x-cache'), 'miss');
      assert.ok(chroma(await decode(fresh.body)) < 2);
      assert.notEqual(fresh.headers.get('etag'), etag);
      const revalidated = await cdn('cat.png', 'w=120&f=png', { 'if-none-match': fresh.headers.get('etag') ?? '' });
      assert.equal(revalidated.status, 304);
    });

    it('answers 0 for an image with no cached variant', async () => {
      const { id } = await upload(projectId, 'cold.png', await readTestImage('coffee.png'));
      const purged = await t.request('POST', `/api/images/projects/${projectId}/images/${id}/purge`);
      assert.equal(purged.status, 200);
      assert.deepEqual(purged.body, { purged: 0, bytesFreed: 0 });
    });

    it("removes every variant of every image of a project, and only that project's", async () => {
      const other = await t.request('POST', '/api/images/projects', { body: { name: 'Kept' } });
      const kept = await upload(other.body.id, 'kept.png', await readTestImage('coffee.png'));
      assert.equal((await fetch(`${t.url}/cdn/${other.body.slug}/kept.png?w=40`)).status, 200);
      await t.request('POST', `/api/images/projects/${projectId}/purge`);
      await upload(projectId, 'rocket.jpg', await readTestImage('rocket.jpg'));
      const queries = ['w=50', 'w=60&f=webp'];
      for (const path of ['rocket.jpg', 'cat.png']) {
        for (const query of queries) assert.equal((await cdn(path, query)).status, 200);
      }
      const before = await variantFiles();

      const purged = await t.request('POST', `/api/images/projects/${projectId}/purge`);
      assert.equal(purged.status, 200, JSON.stringify(purged.body));
      assert.equal(purged.body.purged, 4);
      assert.ok(purged.body.bytesFreed > 0);
      assert.equal(await variantFiles(), before - 4);
      assert.deepEqual((await t.request('POST', `/api/images/projects/${projectId}/purge`)).body, { purged: 0, bytesFreed: 0 });
      assert.equal(
        (await t.request('POST', `/api/images/projects/${other.body.id}/images/${kept.id}/purge`)).body.purged,
        1,
        "the other project's variant stays",
      );
    });

    it("answers 404 for an unknown id or another workspace's project or image", async () => {
      const { id } = await upload(projectId, 'mine.png', await readTestImage('coffee.png'));
      const stranger = await t.createWorkspace();
      const theirs = await t.request('POST', '/api/images/projects', { body: { name: 'Theirs' }, key: stranger.key });
      const unknown = '00000000-0000-4000-8000-000000000000';
      const cases: [string, string | undefined][] = [
        [`/api/images/projects/${projectId}/images/${id}/purge`, stranger.key],
        [`/api/images/projects/${projectId}/purge`, stranger.key],
        [`/api/images/projects/${theirs.body.id}/purge`, undefined],
        [`/api/images/projects/${theirs.body.id}/images/${id}/purge`, undefined],
        [`/api/images/projects/${projectId}/images/${unknown}/purge`, undefined],
        [`/api/images/projects/${unknown}/purge`, undefined],
      ];
      for (const [path, key] of cases) {
        const answer = await t.request('POST', path, key ? { key } : {});
        assert.equal(answer.status, 404, path);
        assert.equal(answer.body.code, 'not_found', path);
      }
    });

    it("refuses a viewer's key with 403", async () => {
      const { id } = await upload(projectId, 'viewed.png', await readTestImage('coffee.png'));
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      for (const path of [`/api/images/projects/${projectId}/images/${id}/purge`, `/api/images/projects/${projectId}/purge`]) {
        const answer = await t.request('POST', path, { key: viewer });
        assert.equal(answer.status, 403, path);
        assert.equal(answer.body.code, 'forbidden', path);
      }
    });
  });
}

describe('Purging over MCP', () => {
  it('offers both purges as tools of the cdn toolset, not of the default listing', () => {
    const names = (toolsets: string[]) => servedTools({ maxUploadBytes: 1024 }, toolsets).map((tool) => tool.name);
    for (const id of ['purgeImageVariants', 'purgeProjectVariants']) {
      assert.ok(names(['cdn']).includes(toolName(id)), id);
      assert.ok(!names(['images']).includes(toolName(id)), id);
    }
  });
});
