import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('loupe keys', () => {
  let t: TestServer;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    env = serverEnv(t);
  });
  after(() => t.close());

  it('creates a key with the scopes named, printing its secret once, and the key works within them', async () => {
    const run = await runLoupe(['keys', 'create', 'CI deploys', '--scope', 'images:read', '--scope', 'reports:read'], env);
    assert.equal(run.code, 0, run.stderr);
    const secret = /^secret +(loupe_\S+)$/m.exec(run.stdout)?.[1];
    assert.ok(secret, run.stdout);
    assert.match(run.stdout, /^scopes +images:read reports:read$/m);
    assert.equal((await runLoupe(['projects', 'list'], { ...env, LOUPE_API_KEY: secret })).code, 0);
    assert.equal((await runLoupe(['keys', 'list'], { ...env, LOUPE_API_KEY: secret })).code, 3, 'team:admin was left out');
  });

  it('lists keys without their secrets, as one JSON array', async () => {
    const list = json(await runLoupe(['keys', 'list', '--json'], env));
    const key = list.find((k: { name: string }) => k.name === 'CI deploys');
    assert.ok(key);
    assert.equal(key.key, undefined);
    assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'scopes', 'userId']);
  });

  it('revokes a key by name, and the API refuses it from then on', async () => {
    const created = json(await runLoupe(['keys', 'create', 'Doomed', '--json'], env));
    assert.match(created.key, /^loupe_/);
    assert.deepEqual(json(await runLoupe(['keys', 'revoke', 'Doomed', '--json'], env)), { deleted: true });
    assert.equal((await runLoupe(['projects', 'list'], { ...env, LOUPE_API_KEY: created.key })).code, 3);
    const again = await runLoupe(['keys', 'revoke', 'Doomed'], env);
    assert.equal(again.code, 4);
    assert.match(again.stderr, /loupe keys list shows them/);
    assert.equal((await runLoupe(['keys', 'revoke', UNKNOWN_ID], env)).code, 4);
  });

  it('exits 2 for an unknown scope, a missing name, and an expiry that is not a time', async () => {
    const scope = await runLoupe(['keys', 'create', 'x', '--scope', 'everything'], env);
    assert.equal(scope.code, 2);
    assert.match(scope.stderr, /Not a scope\. Scopes: images:read/);
    assert.equal((await runLoupe(['keys', 'create'], env)).code, 2);
    const expiry = await runLoupe(['keys', 'create', 'x', '--expires-at', 'tomorrow', '--json'], env);
    assert.equal(expiry.code, 2);
    assert.ok(JSON.parse(expiry.stderr).details.fieldErrors.expiresAt);
  });

  it('refuses a viewer listing or creating keys', async () => {
    const viewer = serverEnv(t, await t.createMemberKey(t.owner.workspaceId, 'viewer'));
    assert.equal((await runLoupe(['keys', 'list'], viewer)).code, 3);
    assert.equal((await runLoupe(['keys', 'create', 'mine'], viewer)).code, 3);
  });
});
