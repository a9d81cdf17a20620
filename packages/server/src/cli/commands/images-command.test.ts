import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testImagesDir } from '../../testing/test-images.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

/** A folder laid out as a user's would be: images at two depths, and files that are not to be sent. */
async function photoFolder(root: string, files: Record<string, string>): Promise<string> {
  for (const [path, testImage] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    if (testImage === 'text') await writeFile(join(root, path), 'not an image');
    else await copyFile(new URL(testImage, testImagesDir), join(root, path));
  }
  return root;
}

describe('loupe images', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let scratch: string;
  let folder: string;
  let workspaceId: string;
  const newProject = async (name: string): Promise<string> => json(await runLoupe(['projects', 'create', name, '--json'], env)).id;

  before(async () => {
    t = await startTestServer('sqlite');
    const workspace = await t.createWorkspace({ plan: 'business' });
    workspaceId = workspace.workspaceId;
    env = serverEnv(t, workspace.key);
    scratch = await mkdtemp(join(tmpdir(), 'loupe-cli-images-'));
    folder = await photoFolder(join(scratch, 'photos'), {
      'rocket.jpg': 'rocket.jpg',
      'camera.png': 'camera.png',
      'animated/tiny.gif': 'no_time_for_that_tiny.gif',
      'animated/deeper/hubble.jpg': 'hubble_deep_field.jpg',
      'notes.txt': 'text',
      '.thumbnails/rocket.jpg': 'rocket.jpg',
    });
  });
  after(async () => {
    await t.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("uploads a folder's image files at every depth under a prefix, a line per file and a summary", async () => {
    const project = await newProject('Folder');
    const run = await runLoupe(['images', 'upload', folder, '--project', project, '--prefix', 'blog/2026/'], env);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.deepEqual(
      lines
        .slice(0, -1)
        .map((line) => line.split(/ {2}/)[1])
        .sort(),
      ['blog/2026/animated/deeper/hubble.jpg', 'blog/2026/animated/tiny.gif', 'blog/2026/camera.png', 'blog/2026/rocket.jpg'],
    );
    assert.match(lines[0]!, /^uploaded {2}\S+ {2}\d+×\d+ (jpeg|png|gif) {2}[\d.]+ kB$/);
    assert.match(lines.at(-1)!, /^Uploaded 4 of 4 files \(\d+ kB\) to project [0-9a-f-]{36}\.$/);
    const listed = json(await runLoupe(['images', 'list', '--project', project, '--json'], env));
    assert.equal(listed.length, 4);
  });

  it('uploads named files under their own names and prints one JSON document with --json', async () => {
    const project = await newProject('Files');
    const run = await runLoupe(
      ['images', 'upload', join(folder, 'rocket.jpg'), join(folder, 'animated'), '--project', project, '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = json(run);
    assert.deepEqual([summary.uploaded, summary.failed, summary.skipped], [3, 0, 0]);
    assert.deepEqual(summary.files.map((file: { path: string }) => file.path).sort(), ['deeper/hubble.jpg', 'rocket.jpg', 'tiny.gif']);
    assert.equal(summary.files.find((file: { path: string }) => file.path === 'rocket.jpg').image.width, 640);
  });

  it('uploads the good files of a batch and exits 2 for a damaged one', async () => {
    const project = await newProject('Mixed');
    const mixed = await photoFolder(join(scratch, 'mixed'), { 'good.jpg': 'rocket.jpg', 'bad.jpg': 'truncated.jpg' });
    const run = await runLoupe(['images', 'upload', mixed, '--project', project], env);
    assert.equal(run.code, 2);
    assert.match(run.stdout, /^failed {4}bad\.jpg {2}.+ \(invalid_image\)$/m);
    assert.match(run.stdout, /^uploaded {2}good\.jpg /m);
    assert.match(run.stdout, /^Uploaded 1 of 2 files .*; 1 failed\.$/m);
  });

  it('exits 2 for a path that does not exist, sending nothing', async () => {
    const project = await newProject('Missing');
    const run = await runLoupe(['images', 'upload', folder, join(scratch, 'nowhere'), '--project', project], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /No such file or folder: .*nowhere/);
    assert.deepEqual(json(await runLoupe(['images', 'list', '--project', project, '--json'], env)), []);
  });

  it('shows, tags and deletes an image named by its path, in a project named by its slug', async () => {
    const project = json(await runLoupe(['projects', 'create', 'Tagged', '--json'], env));
    assert.equal((await runLoupe(['images', 'upload', join(folder, 'rocket.jpg'), '--project', project.slug], env)).code, 0);
    const shown = json(await runLoupe(['images', 'get', 'rocket.jpg', '--project', project.slug, '--json'], env));
    assert.deepEqual([shown.path, shown.width, shown.tags], ['rocket.jpg', 640, []]);
    const tagged = await runLoupe(
      ['images', 'tag', 'rocket.jpg', '--project', project.slug, '--add', 'space', '--add', 'launch', '--alt', 'A rocket'],
      env,
    );
    assert.equal(tagged.code, 0, tagged.stderr);
    assert.equal(tagged.stdout.trim(), 'Updated rocket.jpg: tags space, launch; alt text A rocket');
    const untagged = json(await runLoupe(['images', 'tag', shown.id, '--project', project.id, '--remove', 'space', '--json'], env));
    assert.deepEqual([untagged.tags, untagged.altText], [['launch'], 'A rocket']);
    const text = await runLoupe(['images', 'get', shown.id, '--project', project.id], env);
    assert.match(text.stdout, /^tags +launch$/m);
    assert.match(text.stdout, /^dimensions +640×\d+$/m);
    assert.deepEqual(json(await runLoupe(['images', 'delete', 'rocket.jpg', '--project', project.slug, '--json'], env)), { deleted: true });
    const gone = await runLoupe(['images', 'get', 'rocket.jpg', '--project', project.slug], env);
    assert.equal(gone.code, 4);
    assert.match(gone.stderr, /loupe images list --project/);
    assert.equal((await runLoupe(['images', 'get', UNKNOWN_ID, '--project', project.id], env)).code, 4);
  });

  it('exits 2 for images get without an image or a project, and 3 for a viewer deleting one', async () => {
    const noImage = await runLoupe(['images', 'get', '--project', 'x'], env);
    assert.equal(noImage.code, 2);
    assert.match(noImage.stderr, /missing required argument 'image'/);
    const noProject = await runLoupe(['images', 'delete', 'a.jpg', '--json'], env);
    assert.equal(noProject.code, 2);
    assert.equal(JSON.parse(noProject.stderr).code, 'validation_failed');
    const project = json(await runLoupe(['projects', 'create', 'Viewed', '--json'], env));
    await runLoupe(['images', 'upload', join(folder, 'rocket.jpg'), '--project', project.id], env);
    const viewer = serverEnv(t, await t.createMemberKey(workspaceId, 'viewer'));
    assert.equal((await runLoupe(['images', 'get', 'rocket.jpg', '--project', project.id], viewer)).code, 0);
    assert.equal((await runLoupe(['images', 'delete', 'rocket.jpg', '--project', project.id], viewer)).code, 3);
  });

  it('purges the cached variants of one image or of the whole project', async () => {
    const project = json(await runLoupe(['projects', 'create', 'Purged', '--json'], env));
    await runLoupe(['images', 'upload', join(folder, 'rocket.jpg'), join(folder, 'camera.png'), '--project', project.id], env);
    for (const path of ['rocket.jpg', 'camera.png']) {
      for (const width of [40, 50]) assert.equal((await fetch(`${t.url}/cdn/${project.slug}/${path}?w=${width}`)).status, 200);
    }
    const one = json(await runLoupe(['images', 'purge', 'rocket.jpg', '--project', project.slug, '--json'], env));
    assert.equal(one.purged, 2);
    assert.ok(one.bytesFreed > 0);
    const all = await runLoupe(['images', 'purge', '--all', '--project', project.slug], env);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^Purged 2 cached variants \(.+\) of every image\.$/m);
    assert.deepEqual(json(await runLoupe(['images', 'purge', '--all', '--project', project.id, '--json'], env)), {
      purged: 0,
      bytesFreed: 0,
    });

    for (const args of [[], ['rocket.jpg', '--all']]) {
      const run = await runLoupe(['images', 'purge', ...args, '--project', project.id, '--json'], env);
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(JSON.parse(run.stderr).code, 'validation_failed');
    }
    assert.equal((await runLoupe(['images', 'purge', 'nope.jpg', '--project', project.id], env)).code, 4);
    const viewer = serverEnv(t, await t.createMemberKey(workspaceId, 'viewer'));
    assert.equal((await runLoupe(['images', 'purge', '--all', '--project', project.id], viewer)).code, 3);
  });

  it('exits 4 for an unknown project', async () => {
    const run = await runLoupe(['images', 'upload', join(folder, 'rocket.jpg'), '--project', UNKNOWN_ID, '--json'], env);
    assert.equal(run.code, 4);
    assert.equal(json(run).files[0].error.code, 'not_found');
  });
});
