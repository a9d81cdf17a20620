import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { operations } from '@loupe/contract';
import { testImagesDir } from '../../testing/test-images.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

describe('loupe call', () => {
  let t: TestServer;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    env = serverEnv(t);
  });
  after(() => t.close());

  it('lists every operation of the registry in its help', async () => {
    const run = await runLoupe(['call', '--help']);
    assert.equal(run.code, 0);
    for (const operation of operations) assert.match(run.stdout, new RegExp(`^  ${operation.id} +${operation.method} `, 'm'));
  });

  it('calls an operation with path parameters and a JSON body, printing the answer as JSON', async () => {
    const created = await runLoupe(['call', 'createAuditProject', '--body', '{"name":"Docs","siteUrl":"https://docs.example.com/"}'], env);
    assert.equal(created.code, 0, created.stderr);
    const project = json(created);
    const read = await runLoupe(['call', 'getAuditProject', '-p', `projectId=${project.id}`, '--json'], env);
    assert.equal(json(read).name, 'Docs');
  });

  it('reads the body from stdin with --body -', async () => {
    const run = await runLoupe(['call', 'createImageProject', '--body', '-', '--json'], env, { input: '{"name":"From stdin"}' });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run).name, 'From stdin');
  });

  it('uploads a file to an upload operation, with its fields as parameters', async () => {
    const project = json(await runLoupe(['projects', 'create', 'Called', '--json'], env));
    const file = join(fileURLToPath(testImagesDir), 'camera.png');
    const run = await runLoupe(
      ['call', 'uploadImage', '-p', `projectId=${project.id}`, '-p', 'path=people/camera.png', '--file', file, '--json'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual([json(run).path, json(run).width], ['people/camera.png', 512]);
  });

  it('follows every page of a list with --all', async () => {
    const run = await runLoupe(['call', 'listAuditRules', '--json'], env);
    assert.ok(json(run).length > 50);
    const paged = await runLoupe(['call', 'listImageProjects', '-p', 'limit=1', '--all', '--json'], env);
    assert.equal(paged.code, 0, paged.stderr);
    assert.ok(json(paged).length >= 2);
  });

  it('exits 2 for an unknown operation, parameter or malformed body', async () => {
    const unknown = await runLoupe(['call', 'launchRocket'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No operation "launchRocket"/);
    const parameter = await runLoupe(['call', 'getCredits', '-p', 'colour=red'], env);
    assert.equal(parameter.code, 2);
    assert.match(parameter.stderr, /getCredits takes no parameter "colour"/);
    const body = await runLoupe(['call', 'createImageProject', '--body', '{name'], env);
    assert.equal(body.code, 2);
  });

  it("exits with the API's status class: 4 for an unknown id", async () => {
    const run = await runLoupe(['call', 'getReport', '-p', 'reportId=01890000-0000-7000-8000-000000000000', '--json'], env);
    assert.equal(run.code, 4);
    assert.equal(JSON.parse(run.stderr).code, 'not_found');
  });
});
