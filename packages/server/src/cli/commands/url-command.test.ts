import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testImagesDir } from '../../testing/test-images.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

describe('loupe url', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let slug: string;
  let projectId: string;
  let secret: string;
  before(async () => {
    t = await startTestServer('sqlite');
    env = serverEnv(t);
    const project = json(await runLoupe(['projects', 'create', 'Signed', '--json'], env));
    slug = project.slug;
    projectId = project.id;
    const upload = [
      'images',
      'upload',
      join(fileURLToPath(testImagesDir), 'rocket.jpg'),
      '--project',
      project.id,
      '--prefix',
      'launch day',
    ];
    assert.equal((await runLoupe(upload, env)).code, 0);
    assert.equal((await runLoupe(['presets', 'create', 'thumb', '--project', project.id, '-t', 'width=120', '-t', 'f=webp'], env)).code, 0);
    const signing = await t.request('POST', `/api/images/projects/${project.id}/signing`, {
      body: { enabled: true, requireSignedUrls: true },
    });
    secret = signing.body.signingSecret;
  });
  after(() => t.close());

  it("builds a signed URL with the project's secret, without a key, that the CDN answers", async () => {
    const run = await runLoupe(
      ['url', slug, 'launch day/rocket.jpg', '--preset', 'thumb', '-t', 'h=80', '--secret', secret, '--expires-in', '600'],
      {
        LOUPE_URL: t.url,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const url = run.stdout.trim();
    assert.ok(url.startsWith(`${t.url}/cdn/${slug}/launch%20day/rocket.jpg?exp=`), url);
    const answer = await fetch(url);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'image/webp');
  });

  it('builds an unsigned URL, which a project requiring signatures refuses', async () => {
    const run = await runLoupe(['url', slug, 'launch day/rocket.jpg', '--preset', 'thumb'], env);
    assert.equal(run.stdout.trim(), `${t.url}/cdn/${slug}/launch%20day/rocket.jpg?t=thumb`);
    assert.equal((await fetch(run.stdout.trim())).status, 403);
  });

  it('has the server sign the URL with --sign, and says when it expires with --json', async () => {
    const run = await runLoupe(['url', slug, 'launch day/rocket.jpg', '-t', 'w=64', '--sign', '--expires-in', '60', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const { url, expiresAt } = json(run);
    assert.ok(Date.parse(expiresAt) > Date.now());
    // The server writes its public origin (LOUPE_PUBLIC_URL); the test server listens elsewhere.
    const served = new URL(url);
    assert.equal((await fetch(`${t.url}${served.pathname}${served.search}`)).status, 200);
  });

  it("takes the project's id as well as its slug, looking the slug up with the key", async () => {
    const run = await runLoupe(['url', projectId, 'launch day/rocket.jpg', '--preset', 'thumb'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), `${t.url}/cdn/${slug}/launch%20day/rocket.jpg?t=thumb`);
    const signed = await runLoupe(['url', projectId, 'rocket.jpg', '--sign', '--json'], env);
    assert.equal(signed.code, 0, signed.stderr);
    assert.match(json(signed).url, new RegExp(`/cdn/${slug}/rocket\\.jpg\\?`));
    const unknown = await runLoupe(['url', '01890000-0000-7000-8000-000000000000', 'rocket.jpg'], env);
    assert.equal(unknown.code, 4);
  });

  it('exits 2 for a transform out of range, naming it', async () => {
    const run = await runLoupe(['url', slug, 'rocket.jpg', '-t', 'w=99999', '--json'], env);
    assert.equal(run.code, 2);
    assert.ok(JSON.parse(run.stderr).details.fieldErrors['transforms.width']);
  });

  it('exits 2 for --expires-in without a signature', async () => {
    const run = await runLoupe(['url', slug, 'rocket.jpg', '--expires-in', '60'], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Only a signed URL expires/);
  });

  it('exits 4 for --sign with a slug no project has', async () => {
    const run = await runLoupe(['url', 'no-such-project', 'rocket.jpg', '--sign'], env);
    assert.equal(run.code, 4);
    assert.match(run.stderr, /No image project with the id or slug "no-such-project": loupe projects list shows them/);
  });
});
